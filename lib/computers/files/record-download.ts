// A download a session's page or desktop program made, stored as one of its files
// (source "download"). Too large or past the organization's quota, it is dropped and
// logged: the page's download already happened, there is no client to answer.
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { downloadName } from "@/lib/computers/files/file-names";
import { FileTooLarge, removeBytes, storeBytes } from "@/lib/computers/files/file-storage";
import { insertFile, newFileId, type FileRow } from "@/lib/computers/files/file-store";
import { mimeTypeOf } from "@/lib/computers/files/mime-types";
import { quotaProblem } from "@/lib/computers/files/organization-storage";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

/** The session a file belongs to; its bytes are held by this node (HOST_ID). */
export interface FileOwner {
  id: string;
  organizationId: string;
}

export async function recordDownload(input: {
  session: FileOwner;
  name: string;
  sourcePath?: string;
  source?: Readable;
}): Promise<FileRow | null> {
  const { session } = input;
  const fileId = newFileId();
  const name = downloadName(input.name);
  const source = input.source ?? createReadStream(input.sourcePath!);
  const log = getLogger();
  let stored: Awaited<ReturnType<typeof storeBytes>>;
  try {
    stored = await storeBytes({ computerId: session.id, fileId, source, maxBytes: getEnv().FILES_MAX_BYTES });
  } catch (err) {
    if (!(err instanceof FileTooLarge)) throw err;
    log.warn({ id: session.id, name }, "a download larger than FILES_MAX_BYTES was not kept");
    return null;
  }
  const problem = await quotaProblem(session.organizationId, stored.size);
  if (problem) {
    await removeBytes(session.id, fileId);
    log.warn({ id: session.id, name }, `a download was not kept: ${problem.message}`);
    return null;
  }
  try {
    return await insertFile({
      id: fileId,
      organizationId: session.organizationId,
      computerId: session.id,
      hostId: getEnv().HOST_ID,
      name,
      mimeType: mimeTypeOf(name),
      sizeBytes: stored.size,
      sha256: stored.sha256,
      source: "download",
    });
  } catch (err) {
    await removeBytes(session.id, fileId);
    throw err;
  }
}
