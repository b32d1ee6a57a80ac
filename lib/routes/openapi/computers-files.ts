// The session files operations of the OpenAPI document (docs/files.md): upload
// (multipart), list, read the bytes, delete.
import { z } from "zod";
import { jsonSchema, ok, operation, pathParam, ref, type JsonSchema } from "@/lib/routes/openapi/build";

const id = pathParam("id", "Session id (comp_<hex>)", "comp_0123456789abcdef");
const fileId = pathParam("file_id", "File id (file_<hex>)", "file_0123456789abcdef01234567");

const sessionFile = z.object({
  id: z.string().describe("file_<hex>"),
  name: z.string().describe("The file's name (also its name in /workspace/uploads on a desktop)"),
  size: z.number().int().describe("Bytes"),
  sha256: z.string().describe("SHA-256 of the bytes, hex"),
  mime_type: z.string(),
  source: z.enum(["upload", "download"]).describe("upload: sent by a client; download: saved by a page or program"),
  created_at: z.string().describe("ISO 8601 time (UTC)"),
  path: z.string().optional().describe("Desktop uploads: where the file was written inside the desktop"),
});

export function filesComponents(): Record<string, JsonSchema> {
  return {
    SessionFile: jsonSchema(sessionFile, "output"),
    SessionFileList: jsonSchema(z.object({ data: z.array(sessionFile) }), "output"),
  };
}

const uploadForm: JsonSchema = {
  type: "object",
  required: ["file"],
  properties: {
    file: { type: "string", format: "binary", description: "The file; its part's filename is the file's name" },
    path: {
      type: "string",
      description: "Desktops only: a folder under /workspace/uploads (relative) to write the file into",
    },
  },
};

export function computersFilesPaths(): Record<string, Record<string, unknown>> {
  return {
    "/computers/{id}/files": {
      post: operation(
        "computers",
        "uploadFile",
        {
          tag: "Files",
          summary: "Upload a file to the session",
          description:
            "Streamed to disk, up to FILES_MAX_BYTES (413 past it, nothing kept) and within the organization's " +
            "ORG_STORAGE_MAX_BYTES (413). A browser's next file chooser gets the latest upload; a desktop finds " +
            "it in /workspace/uploads.",
          parameters: [id],
          requestBody: { required: true, content: { "multipart/form-data": { schema: uploadForm } } },
          responses: { "201": ok("The stored file", ref("SessionFile")) },
        },
        ["400", "401", "404", "409", "413"],
      ),
      get: operation(
        "computers",
        "listFiles",
        {
          tag: "Files",
          summary: "List the session's uploads and downloads (also after it ended)",
          parameters: [id],
          responses: { "200": ok("Files, oldest first", ref("SessionFileList")) },
        },
        ["401", "404"],
      ),
    },
    "/computers/{id}/files/{file_id}": {
      get: operation(
        "computers",
        "getFile",
        {
          tag: "Files",
          summary: "The file's bytes, with its name (Content-Disposition) and type",
          parameters: [id, fileId],
          responses: {
            "200": {
              description: "The bytes",
              content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
            },
          },
        },
        ["401", "404"],
      ),
      delete: operation(
        "computers",
        "deleteFile",
        {
          tag: "Files",
          summary: "Delete a file",
          parameters: [id, fileId],
          responses: { "204": { description: "Deleted" } },
        },
        ["401", "404"],
      ),
    },
  };
}

export const filesTag = {
  name: "Files",
  description: "Files in and out of sessions: uploads, captured downloads",
  "x-surface": "computers",
};
