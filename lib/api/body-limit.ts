// How large a request body may be (docs/limits.md): MAX_REQUEST_BODY_BYTES for every
// surface, except a session file upload (POST /computers/{id}/files, and the dashboard's /api/sessions/{id}/files),
// which may carry one
// file of FILES_MAX_BYTES plus its multipart framing; the upload itself refuses a bigger
// file with a 413 naming FILES_MAX_BYTES (docs/files.md). Pure.
import type { Env } from "@/lib/env";

/** Room for the multipart boundaries, part headers and the small `path` field around the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const UPLOAD_PATH = /^\/(computers|api\/sessions)\/[^/?]+\/files\/?(\?|$)/;

export function requestBodyLimit(
  method: string | undefined,
  url: string | undefined,
  env: Pick<Env, "MAX_REQUEST_BODY_BYTES" | "FILES_MAX_BYTES">,
): number {
  if (method === "POST" && UPLOAD_PATH.test(url ?? "")) {
    return Math.max(env.MAX_REQUEST_BODY_BYTES, env.FILES_MAX_BYTES + MULTIPART_OVERHEAD_BYTES);
  }
  return env.MAX_REQUEST_BODY_BYTES;
}
