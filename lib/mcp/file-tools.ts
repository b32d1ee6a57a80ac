// MCP tools for session files (docs/files.md, docs/mcp.md): upload a file to a session from
// base64 content, list a session's files, and read one back as base64. The same domain
// functions as POST/GET /computers/{id}/files, with the same names, limits (`uploadFieldsSchema`) and quota.
import { Readable } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { listFiles, readFileBytes, uploadFieldsSchema, uploadFileBytes } from "@/lib/computers/session-files";
import { jsonResult as json, toolResult, type McpCaller } from "@/lib/mcp/result";

/** What read_file returns inline: larger files are read over HTTP, which streams them. */
export const MCP_READ_MAX_BYTES = 8 * 1024 * 1024;

const sessionId = z.string().min(1).describe("The session id (comp_…)");
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const upload = uploadFieldsSchema.shape;

export function registerFileTools(server: McpServer, caller: McpCaller): void {
  const who = { organizationId: caller.principal.organizationId };

  server.registerTool(
    "upload_file",
    {
      description:
        "Give a session a file: a browser's next file chooser (an <input type=file> clicked) gets it; a desktop " +
        "finds it in /workspace/uploads. Returns the file object (id, name, size, sha256).",
      inputSchema: {
        session_id: sessionId,
        name: upload.name.describe("The file's name, e.g. invoice.pdf (no folders)"),
        content_base64: z.string().describe("The file's bytes, base64-encoded"),
        mime_type: upload.mime_type.describe("Its media type (default: from the name)"),
        path: upload.path.describe("Desktops: a folder under /workspace/uploads"),
      },
    },
    (args) =>
      toolResult(async () => {
        const text = args.content_base64.replace(/\s+/g, "");
        if (!BASE64.test(text) || text.length % 4 === 1) {
          throw new AppError("invalid_request", "content_base64 is not base64", { param: "content_base64" });
        }
        const data = Buffer.from(text, "base64");
        return json(
          await uploadFileBytes({
            caller: who,
            id: args.session_id,
            upload: { name: args.name, mimeType: args.mime_type, path: args.path },
            source: Readable.from([data]),
          }),
        );
      }),
  );

  server.registerTool(
    "list_files",
    {
      description:
        "List a session's files: uploads and the downloads its pages or programs saved (also after it ended).",
      inputSchema: { session_id: sessionId },
    },
    (args) => toolResult(async () => json(await listFiles({ caller: who, id: args.session_id }))),
  );

  server.registerTool(
    "read_file",
    {
      description:
        `Read a session's file back: its object and its bytes as base64 (files up ` +
        `to ${MCP_READ_MAX_BYTES / 1024 / 1024} MiB).`,
      inputSchema: { session_id: sessionId, file_id: z.string().min(1).describe("The file id (file_…)") },
    },
    (args) =>
      toolResult(async () => {
        const { file, data } = await readFileBytes({
          caller: who,
          id: args.session_id,
          fileId: args.file_id,
          maxBytes: MCP_READ_MAX_BYTES,
        });
        return json({ file, content_base64: data.toString("base64") });
      }),
  );
}
