// The session files API (docs/files.md): POST/GET /computers/{id}/files and
// GET/DELETE /computers/{id}/files/{file_id}, each scoped to the caller's organization
// (another organization's session or file is 404). Files outlive their session for
// FILES_RETENTION_HOURS; uploads need the session live, reads and deletes do not.
import type { Readable } from "node:stream";
import { AppError } from "@/lib/api/errors";
import { checkedFolder, checkedName } from "@/lib/computers/files/file-names";
import {
  bytesExist,
  fileBytesPath,
  FileTooLarge,
  readBytes,
  removeBytes,
  storeBytes,
  type StoredBytes,
} from "@/lib/computers/files/file-storage";
import {
  deleteFileRow,
  findSessionFile,
  insertFile,
  listSessionFiles,
  newFileId,
  type FileRow,
} from "@/lib/computers/files/file-store";
import { mimeTypeOf } from "@/lib/computers/files/mime-types";
import { receiveUpload, tooLarge } from "@/lib/computers/files/multipart-upload";
import { quotaProblem } from "@/lib/computers/files/organization-storage";
import { findOwnedComputer, reachSession } from "@/lib/computers/sessions/access";
import { getSessionManager } from "@/lib/computers/registry";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

export interface FileCaller {
  organizationId: string;
}

export interface FileObject {
  id: string;
  name: string;
  size: number;
  sha256: string;
  mime_type: string;
  source: "upload" | "download";
  created_at: string;
  /** Where a desktop upload was written inside the desktop. */
  path?: string;
}

export function toFileObject(row: FileRow, path?: string): FileObject {
  return {
    id: row.id,
    name: row.name,
    size: row.sizeBytes,
    sha256: row.sha256,
    mime_type: row.mimeType,
    source: row.source === "download" ? "download" : "upload",
    created_at: row.createdAt.toISOString(),
    ...(path ? { path } : {}),
  };
}

/** A file's bytes from any client of the domain (the HTTP route, MCP): a stream of a stored upload. */
export interface StoredUpload {
  name: string;
  mimeType?: string;
  path?: string;
}

/**
 * POST /computers/{id}/files: the body streams to disk; the row is written only once the
 * bytes are complete, within FILES_MAX_BYTES and the organization's quota, and (desktops)
 * written into the desktop. Any refusal leaves nothing.
 */
export async function uploadFile(input: { caller: FileCaller; id: string; request: Request }): Promise<FileObject> {
  const { row } = await reachSession(input.caller, input.id);
  const full = await quotaProblem(row.organizationId, 1);
  if (full) throw full;
  const fileId = newFileId();
  const env = getEnv();
  const received = await receiveUpload({
    request: input.request,
    computerId: row.id,
    fileId,
    maxBytes: env.FILES_MAX_BYTES,
  });
  return keepUpload({
    row,
    fileId,
    received,
    upload: { name: received.filename, mimeType: received.mimeType, path: received.path },
  });
}

/** An upload whose bytes come from an in-process client (MCP's base64 content), with the same checks as POST. */
export async function uploadFileBytes(input: {
  caller: FileCaller;
  id: string;
  upload: StoredUpload;
  source: Readable;
}): Promise<FileObject> {
  const { row } = await reachSession(input.caller, input.id);
  checkedName(input.upload.name, "file");
  const full = await quotaProblem(row.organizationId, 1);
  if (full) throw full;
  const fileId = newFileId();
  const maxBytes = getEnv().FILES_MAX_BYTES;
  let received: StoredBytes;
  try {
    received = await storeBytes({ computerId: row.id, fileId, source: input.source, maxBytes });
  } catch (err) {
    if (err instanceof FileTooLarge) throw tooLarge(maxBytes);
    throw err;
  }
  return keepUpload({ row, fileId, received, upload: input.upload });
}

/** Reads a whole file into memory for in-process clients (MCP), refused past `maxBytes`. */
export async function readFileBytes(input: {
  caller: FileCaller;
  id: string;
  fileId: string;
  maxBytes: number;
}): Promise<{ file: FileObject; data: Buffer }> {
  const { file, stream } = await readFile(input);
  if (file.size > input.maxBytes) {
    stream.destroy();
    throw new AppError(
      "payload_too_large",
      `File '${file.id}' is ${file.size} bytes, more than ${input.maxBytes} can be read here; GET ` +
        `/computers/${input.id}/files/${file.id} streams it`,
      { param: "file_id", detail: "file_too_large" },
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return { file, data: Buffer.concat(chunks) };
}

/** The checks and writes after an upload's bytes are stored (shared by the HTTP route and MCP). */
export async function keepUpload(input: {
  row: { id: string; organizationId: string; hostId: string };
  fileId: string;
  received: { size: number; sha256: string };
  upload: StoredUpload;
}): Promise<FileObject> {
  const { row, fileId, received, upload } = input;
  const discard = () => removeBytes(row.id, fileId);
  let inserted: FileRow | null = null;
  try {
    const name = checkedName(upload.name, "file");
    const folder = checkedFolder(upload.path, "path");
    const problem = await quotaProblem(row.organizationId, received.size);
    if (problem) throw problem;
    inserted = await insertFile({
      id: fileId,
      organizationId: row.organizationId,
      computerId: row.id,
      hostId: row.hostId,
      name,
      mimeType: mimeTypeOf(name, upload.mimeType),
      sizeBytes: received.size,
      sha256: received.sha256,
      source: "upload",
    });
    const placed = await placeInComputer(row.id, inserted, folder);
    return toFileObject(inserted, placed);
  } catch (err) {
    if (inserted) await deleteFileRow(inserted.id).catch(() => {});
    await discard();
    throw err;
  }
}

/** Desktops: the upload appears in /workspace/uploads. Browsers use it at their next file chooser. */
async function placeInComputer(computerId: string, file: FileRow, folder: string[]): Promise<string | undefined> {
  const handle = getSessionManager().get(computerId)?.handle;
  if (!handle?.files) {
    if (folder.length) {
      throw new AppError("invalid_request", "path: only desktop sessions place uploads in folders", {
        param: "path",
        detail: "path_not_supported",
      });
    }
    return undefined;
  }
  try {
    return await handle.files.put({ name: file.name, folder, sourcePath: fileBytesPath(file.computerId, file.id) });
  } catch (err) {
    getLogger().warn({ err, id: computerId }, "could not write an upload into the desktop");
    throw new AppError("internal", `The file could not be written into the desktop: ${(err as Error).message}`);
  }
}

/** GET /computers/{id}/files: uploads and downloads, oldest first, also after the session ended. */
export async function listFiles(input: { caller: FileCaller; id: string }): Promise<{ data: FileObject[] }> {
  const row = await findOwnedComputer(input.caller, input.id);
  // A desktop's downloads folder is looked at now, so a file saved a moment ago is listed.
  const handle = row.status !== "terminated" ? getSessionManager().get(row.id)?.handle : null;
  if (handle?.files) await handle.files.collect();
  const rows = await listSessionFiles({ computerId: row.id, organizationId: row.organizationId });
  return { data: rows.map((r) => toFileObject(r)) };
}

async function findFile(caller: FileCaller, id: string, fileId: string): Promise<FileRow> {
  const row = await findOwnedComputer(caller, id);
  const file = await findSessionFile({ id: fileId, computerId: row.id, organizationId: row.organizationId });
  if (!file)
    throw new AppError("not_found", `File '${fileId}' not found in session '${id}'`, { detail: "file_not_found" });
  return file;
}

/** GET /computers/{id}/files/{file_id}: the bytes, streamed, with the file's name and type. */
export async function readFile(input: {
  caller: FileCaller;
  id: string;
  fileId: string;
}): Promise<{ file: FileObject; stream: Readable }> {
  const file = await findFile(input.caller, input.id, input.fileId);
  if (file.hostId !== getEnv().HOST_ID || !(await bytesExist(file.computerId, file.id))) {
    throw new AppError("unavailable", `File '${file.id}' is held by node '${file.hostId}', which is not reachable`, {
      detail: "file_on_other_node",
    });
  }
  return { file: toFileObject(file), stream: readBytes(file.computerId, file.id) };
}

/** DELETE /computers/{id}/files/{file_id}: the row and the bytes (a desktop's copy stays the desktop's). */
export async function deleteFile(input: { caller: FileCaller; id: string; fileId: string }): Promise<void> {
  const file = await findFile(input.caller, input.id, input.fileId);
  if (file.hostId !== getEnv().HOST_ID) {
    throw new AppError("unavailable", `File '${file.id}' is held by node '${file.hostId}', which is not reachable`, {
      detail: "file_on_other_node",
    });
  }
  await deleteFileRow(file.id);
  await removeBytes(file.computerId, file.id);
}
