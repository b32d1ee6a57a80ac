// Where a session file's bytes live on the node that holds them: DATA_DIR/files/<session>/<file id>.
// Names never take part in a path (file-names.ts), so no client input reaches the file system.
// Bytes are written to a `.part` file while they arrive (hashed and counted on the way) and
// renamed only when complete and within the limit: a refused or broken write leaves nothing.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { dataDir } from "@/lib/env";

const ID = /^(comp|file)_[0-9a-f]{24}$/;

function checkedId(id: string): string {
  // Ids are made by the server; anything else here is a bug, not input.
  if (!ID.test(id)) throw new Error(`not a file store id: ${id}`);
  return id;
}

export function sessionFilesDir(computerId: string): string {
  return path.join(dataDir(), "files", checkedId(computerId));
}

export function fileBytesPath(computerId: string, fileId: string): string {
  return path.join(sessionFilesDir(computerId), checkedId(fileId));
}

/** Thrown when a stream is longer than allowed; the partial file is gone by then. */
export class FileTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`file larger than ${limit} bytes`);
    this.name = "FileTooLarge";
  }
}

export interface StoredBytes {
  size: number;
  sha256: string;
}

/** Streams `source` into the file's place, never holding it whole; past `maxBytes` it stops and throws FileTooLarge. */
export async function storeBytes(input: {
  computerId: string;
  fileId: string;
  source: Readable;
  maxBytes: number;
}): Promise<StoredBytes> {
  const target = fileBytesPath(input.computerId, input.fileId);
  const partial = `${target}.part`;
  await mkdir(path.dirname(target), { recursive: true });
  const hash = createHash("sha256");
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > input.maxBytes) return done(new FileTooLarge(input.maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(input.source, counter, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    // A source that was cut off because of the limit reports its own error first at times.
    if (size > input.maxBytes) throw new FileTooLarge(input.maxBytes);
    throw err;
  }
  return { size, sha256: hash.digest("hex") };
}

export function readBytes(computerId: string, fileId: string): Readable {
  return createReadStream(fileBytesPath(computerId, fileId));
}

export async function bytesExist(computerId: string, fileId: string): Promise<boolean> {
  return stat(fileBytesPath(computerId, fileId)).then(
    () => true,
    () => false,
  );
}

export async function removeBytes(computerId: string, fileId: string): Promise<void> {
  await rm(fileBytesPath(computerId, fileId), { force: true });
}

/** The session's whole folder (its last file deleted, or its files expired). */
export async function removeSessionDir(computerId: string): Promise<void> {
  await rm(sessionFilesDir(computerId), { recursive: true, force: true });
}
