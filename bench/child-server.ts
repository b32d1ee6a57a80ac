// Small HTTP servers bench:models runs in child processes of their own, so
// every path it times crosses the same process boundaries a real deployment has.
import { spawn, type ChildProcess } from "node:child_process";

/** Runs `source` (an ES module that prints its port) with `env`; resolves with its port. */
export async function spawnHttpChild(
  source: string,
  env: Record<string, string> = {},
): Promise<{ port: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (d) => resolve(String(d).trim()));
    child.once("exit", (code) => reject(new Error(`bench child server exited (${code})`)));
  });
  return { port, child };
}

/**
 * The reference hop: the least a Node gateway does for a non-streamed chat
 * request (read the body, parse it, rename the model, forward it over a
 * keep-alive connection, parse the answer, rename the model back, write it),
 * with no authentication, limits, metering or headers. Timed the way Cabin is,
 * its added latency is the floor any Node gateway pays on this machine.
 */
export const REFERENCE_PROXY_SOURCE =
  `
import http from "node:http";
const upstream = new URL(process.env.UPSTREAM_CHAT_URL);
const agent = new http.Agent({ keepAlive: true });
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (d) => chunks.push(d));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString());
    const model = body.model;
    body.model = "up";
    const payload = Buffer.from(JSON.stringify(body));
    const forwarded = http.request(upstream, { method: "POST", agent, headers: { "content-type": ` +
  `"application/json", "content-length": payload.length } }, (answer) => {
      const parts = [];
      answer.on("data", (d) => parts.push(d));
      answer.on("end", () => {
        const json = JSON.parse(Buffer.concat(parts).toString());
        json.model = model;
        const text = JSON.stringify(json);
        res.writeHead(answer.statusCode, { "content-type": "application/json", "content-length": ` +
  `Buffer.byteLength(text) });
        res.end(text);
      });
    });
    forwarded.end(payload);
  });
});
server.keepAliveTimeout = 65000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;
