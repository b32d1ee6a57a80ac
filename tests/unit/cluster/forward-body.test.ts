// @needs nothing
// The forwarder's reading of a body-addressed request (lib/cluster/forward-body.ts), on a real loopback HTTP
// server: the whole body is read once, and the request handed on carries those bytes to a reader (as a web
// stream, the way Next reads it) on the same connection; a copy dropped unread leaves the connection alone.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { BufferedRequest, readWholeBody } from "@/lib/cluster/forward-body";

let server: http.Server | null = null;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("a body read by the forwarder", () => {
  it("reaches the handler's reader as sent, with its method, path and headers, on a kept-alive socket", async () => {
    const url = await serve(async (req, res) => {
      const body = await readWholeBody(req, res);
      const copy = new BufferedRequest(req, body!);
      const web = new Request(`http://x${copy.url}`, {
        method: copy.method,
        headers: copy.headers as Record<string, string>,
        body: Readable.toWeb(copy) as ReadableStream,
        duplex: "half",
      } as RequestInit);
      const parsed = await web.json();
      res.end(JSON.stringify({ parsed, method: copy.method, url: copy.url, type: copy.headers["content-type"] }));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (const n of [1, 2]) {
      const body = JSON.stringify({ computer_id: "comp_x", n, pad: "é".repeat(40_000) });
      const answer = await new Promise<string>((resolve, reject) => {
        const req = http.request(`${url}/agent/tasks?x=1`, { method: "POST", agent }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve(text));
        });
        req.on("error", reject);
        req.setHeader("content-type", "application/json");
        req.end(body); // a known length; the second request rides the same socket
      });
      expect(JSON.parse(answer)).toEqual({
        parsed: JSON.parse(body),
        method: "POST",
        url: "/agent/tasks?x=1",
        type: "application/json",
      });
    }
    agent.destroy();
  });

  it("leaves the connection open when the handed-on request is dropped unread", async () => {
    const url = await serve(async (req, res) => {
      const copy = new BufferedRequest(req, (await readWholeBody(req, res))!);
      copy.destroy();
      res.end("answered");
    });
    const res = await fetch(`${url}/mcp`, { method: "POST", body: '{"jsonrpc":"2.0"}' });
    expect(await res.text()).toBe("answered");
  });

  it("gives no body when the request was answered before it ended (a refusal in front)", async () => {
    let read: Buffer | null | undefined;
    const url = await serve(async (req, res) => {
      req.emit = ((event: string) => event !== "end") as typeof req.emit; // a body limit that keeps the end back
      const reading = readWholeBody(req, res);
      res.statusCode = 413;
      res.end("too large");
      read = await reading;
    });
    const res = await fetch(`${url}/mcp`, { method: "POST", body: "x".repeat(10) });
    expect(res.status).toBe(413);
    await res.text();
    await expect.poll(() => read).toBeNull();
  });
});
