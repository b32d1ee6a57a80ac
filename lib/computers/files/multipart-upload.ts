// Reads POST /computers/{id}/files (docs/files.md): a multipart/form-data body with one
// `file` part and an optional `path` field, parsed as it streams (busboy) with the file's
// bytes going straight to disk (storeBytes), so no upload is ever held whole in memory.
// Past FILES_MAX_BYTES the rest of the body is read and thrown away (a client that is
// still sending would otherwise see a broken pipe instead of the 413) and nothing is kept.
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError } from "@/lib/api/errors";
import { removeBytes, storeBytes, type StoredBytes } from "@/lib/computers/files/file-storage";

export interface ReceivedUpload extends StoredBytes {
  /** The part's filename, unchecked (the caller checks it). */
  filename: string;
  /** The part's Content-Type, as the client declared it. */
  mimeType: string;
  /** The `path` field, when sent. */
  path?: string;
}

/** The longest form field POST reads (a desktop upload's `path`); busboy cuts a longer one. */
export const FIELD_MAX_BYTES = 4096;

function formError(message: string, param = "file"): AppError {
  return new AppError("invalid_request", message, { param, detail: "invalid_upload" });
}

export function tooLarge(limit: number): AppError {
  return new AppError(
    "payload_too_large",
    `file: larger than FILES_MAX_BYTES (${limit} bytes, ${Math.round((limit / 1024 / 1024) * 10) / 10} MiB); ` +
      `nothing was kept`,
    { param: "file", detail: "file_too_large" },
  );
}

/**
 * Streams the body's `file` part to the bytes of `fileId`; resolves once the whole body
 * was read. Any refusal leaves no bytes behind.
 */
export async function receiveUpload(input: {
  request: Request;
  computerId: string;
  fileId: string;
  maxBytes: number;
}): Promise<ReceivedUpload> {
  const contentType = input.request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new AppError(
      "invalid_request",
      `Content-Type must be multipart/form-data with a 'file' part (got '${contentType.slice(0, 80) || "none"}')`,
      { param: "file", detail: "invalid_upload" },
    );
  }
  if (!input.request.body) throw formError("The request has no body; send a multipart form with a 'file' part");
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // The filename as sent: busboy would cut `../x` down to `x`, and such a name must be refused (checkedName).
      preservePath: true,
      // One byte past the limit is read, so that a file of exactly FILES_MAX_BYTES is whole (busboy marks a file
      // that reaches its fileSize as truncated) and a longer one is told apart by its size.
      limits: { files: 1, fields: 4, parts: 8, fieldSize: FIELD_MAX_BYTES, fileSize: input.maxBytes + 1 },
    });
  } catch (err) {
    throw formError(`The multipart form cannot be read: ${(err as Error).message}`);
  }
  const { computerId, fileId } = input;
  let stored: Promise<StoredBytes & { truncated: boolean; filename: string; mimeType: string }> | null = null;
  let path: string | undefined;
  let extraFile = false;
  parser.on("file", (name, stream, info) => {
    if (name !== "file" || stored) {
      extraFile = true;
      return void stream.resume();
    }
    stored = storeBytes({ computerId, fileId, source: stream, maxBytes: input.maxBytes + 1 }).then((bytes) => ({
      ...bytes,
      truncated: (stream as unknown as { truncated?: boolean }).truncated === true,
      filename: info.filename ?? "",
      mimeType: info.mimeType,
    }));
    stored.catch(() => {}); // awaited below, after the body ends
  });
  parser.on("field", (name, value) => {
    if (name === "path") path = value;
  });
  const done = new Promise<void>((resolve, reject) => {
    parser.once("close", resolve);
    parser.once("error", reject);
  });
  const body = Readable.fromWeb(input.request.body as unknown as WebReadableStream<Uint8Array>);
  body.once("error", (err) => parser.destroy(err));
  body.pipe(parser);
  try {
    await done;
  } catch (err) {
    if (stored) await (stored as Promise<unknown>).catch(() => {});
    await removeBytes(computerId, fileId);
    throw formError(`The multipart form cannot be read: ${(err as Error).message}`);
  }
  if (!stored) {
    throw formError(
      extraFile ? "The form's file part must be named 'file'" : "The form has no 'file' part (a file to upload)",
    );
  }
  const result = await (stored as Promise<StoredBytes & { truncated: boolean; filename: string; mimeType: string }>);
  if (result.truncated || result.size > input.maxBytes) {
    await removeBytes(computerId, fileId);
    throw tooLarge(input.maxBytes);
  }
  if (extraFile) {
    await removeBytes(computerId, fileId);
    throw formError("The form must carry exactly one file, in a part named 'file'");
  }
  return { size: result.size, sha256: result.sha256, filename: result.filename, mimeType: result.mimeType, path };
}
