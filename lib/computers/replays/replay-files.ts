// Where replays' MP4s live (DATA_DIR/replays/<replay id>.mp4, on the node that recorded
// them) and how one is served: the whole file, or one byte range (RFC 9110 §14) so a
// player can seek without downloading what comes before.
import { createReadStream } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { AppError } from "@/lib/api/errors";
import { dataDir } from "@/lib/env";

export function replaysDir(): string {
  return path.join(dataDir(), "replays");
}

export function replayFilePath(fileName: string): string {
  return path.join(replaysDir(), fileName);
}

export async function ensureReplaysDir(): Promise<void> {
  await mkdir(replaysDir(), { recursive: true });
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes; null: the whole file; "unsatisfiable": 416. */
export function parseRange(
  header: string | null,
  size: number,
): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answered with the whole file, as RFC 9110 allows.
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/** The MP4's bytes (all, or the asked range as a 206). */
export async function replayFileResponse(input: { fileName: string; range: string | null }): Promise<Response> {
  const file = replayFilePath(input.fileName);
  const size = await stat(file)
    .then((s) => s.size)
    .catch(() => null);
  if (size === null) throw new AppError("not_found", "The replay's file is gone", { detail: "replay_file_missing" });
  const headers: Record<string, string> = {
    "content-type": "video/mp4",
    "accept-ranges": "bytes",
    "content-disposition": `inline; filename="${input.fileName}"`,
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-store",
  };
  const range = parseRange(input.range, size);
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const body =
    size === 0 ? null : (Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream<Uint8Array>);
  return new Response(body, {
    status: range ? 206 : 200,
    headers: {
      ...headers,
      "content-length": String(size === 0 ? 0 : end - start + 1),
      ...(range ? { "content-range": `bytes ${start}-${end}/${size}` } : {}),
    },
  });
}
