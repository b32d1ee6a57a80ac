// The HTTP answer that carries a session file's bytes: streamed, with its type, length,
// sha256 and name (Content-Disposition, RFC 6266 with an RFC 8187 UTF-8 form for any name).
import { Readable } from "node:stream";
import type { FileObject } from "@/lib/computers/files/files-service";

export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileResponse(file: FileObject, stream: Readable): Response {
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": file.mime_type,
      "content-length": String(file.size),
      "content-disposition": contentDisposition(file.name),
      "x-content-type-options": "nosniff",
      "x-file-sha256": file.sha256,
      "cache-control": "private, no-store",
    },
  });
}
