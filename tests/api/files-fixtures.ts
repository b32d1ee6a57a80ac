// Helpers of the session files tests: multipart bodies built byte for byte (so a test can
// send names a FormData would escape), uploads, and a loopback site with a file input
// and a download link.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { inject } from "vitest";
import { listenOnLoopback } from "./loopback";

export const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

export function multipart(parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>) {
  const boundary = `----cabin${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ""}\r\n`;
    chunks.push(Buffer.from(head, "utf8"), Buffer.from(part.data), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(
  id: string,
  file: { name: string; data: Buffer; type?: string },
  options: { key?: string; base?: string; path?: string } = {},
): Promise<{ status: number; body: any }> {
  const parts: Parameters<typeof multipart>[0] = [
    { name: "file", filename: file.name, type: file.type ?? "application/octet-stream", data: file.data },
  ];
  if (options.path !== undefined) parts.push({ name: "path", data: options.path });
  const { body, contentType } = multipart(parts);
  const res = await fetch(`${options.base ?? inject("baseUrl")}/computers/${id}/files`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.key ?? inject("apiKey")}`, "content-type": contentType },
    body,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

export async function fetchFile(id: string, fileId: string, options: { key?: string; base?: string } = {}) {
  const res = await fetch(`${options.base ?? inject("baseUrl")}/computers/${id}/files/${fileId}`, {
    headers: { authorization: `Bearer ${options.key ?? inject("apiKey")}` },
  });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

/** The report the download link serves: its bytes are fixed per site, so a test knows their hash. */
export interface FilesSite {
  url: string;
  report: Buffer;
  close(): Promise<void>;
}

// The page reports what its file input received: name, size and a SHA-256 computed in the page.
const CHOOSER_PAGE = `<!doctype html><html><head><title>chooser</title></head><body style="margin:0">
<input id="f" type="file" style="position:absolute;left:0;top:0;width:600px;height:300px">
<script>
document.getElementById("f").addEventListener("change", async (e) => {
  const out = [];
  for (const file of e.target.files) {
    const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    out.push(file.name + "|" + file.size + "|" + hex);
  }
  const div = document.createElement("div");
  div.id = "result";
  div.textContent = "GOT" + ":" + out.join(",") + ":END";
  document.body.append(div);
});
</script></body></html>`;

const DOWNLOAD_PAGE =
  `<!doctype html><html><head><title>download</title></head><body style="margin:0">
<a id="d" href="/report.csv" ` +
  `style="position:absolute;left:0;top:0;width:400px;height:200px;display:block;background:#ddd">get the report</a>
</body></html>`;

export async function startFilesSite(): Promise<FilesSite> {
  const report = Buffer.concat([Buffer.from("id,value\n"), Buffer.from(randomBytes(48 * 1024).toString("hex"))]);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://site").pathname;
    if (path === "/report.csv") {
      res.writeHead(200, {
        "content-type": "text/csv",
        "content-length": report.length,
        "content-disposition": 'attachment; filename="quarterly report.csv"',
      });
      return void res.end(report);
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(path === "/download" ? DOWNLOAD_PAGE : CHOOSER_PAGE);
  });
  return { ...(await listenOnLoopback(server)), report };
}

/** The `GOT:<name>|<size>|<sha256>,…:END` line the chooser page writes, parsed. */
export function chosenFiles(html: string): Array<{ name: string; size: number; sha256: string }> | null {
  const match = /GOT:(.*?):END/.exec(html);
  if (!match) return null;
  return match[1]!
    .split(",")
    .filter(Boolean)
    .map((entry) => {
      const [name, size, hash] = entry.split("|");
      return { name: name!, size: Number(size), sha256: hash! };
    });
}
