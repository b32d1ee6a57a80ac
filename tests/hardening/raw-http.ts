// One HTTP request as a hostile client sends it: any method token, the path's
// bytes as given (no dot-segment or %-normalization, unlike fetch), any headers
// and body bytes. Streams (SSE, exec output) are cut once their head arrived.
import http from "node:http";

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** What the request is, for failure reports. */
  label: string;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
  ms: number;
  /** The answer was a stream, cut after its head. */
  streamed: boolean;
}

const STREAM_TYPES = /text\/event-stream|application\/x-ndjson|application\/jsonl|image\/|octet-stream/;

export function sendRaw(port: number, request: RawRequest, agent: http.Agent, timeoutMs = 30_000): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let req: http.ClientRequest;
    try {
      req = http.request({
        host: "127.0.0.1",
        port,
        method: request.method,
        path: request.path,
        headers: request.headers,
        agent,
      });
    } catch (err) {
      // Node itself refuses the request (an invalid header character): nothing reached the server.
      reject(Object.assign(new Error(`client refused: ${(err as Error).message}`), { clientRefused: true }));
      return;
    }
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on("response", (res) => {
      const contentType = String(res.headers["content-type"] ?? "");
      const chunks: Buffer[] = [];
      const done = (streamed: boolean) => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          contentType,
          body: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - started,
          streamed,
        });
      };
      if (res.statusCode! < 300 && STREAM_TYPES.test(contentType)) {
        res.destroy();
        done(true);
        return;
      }
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(false));
      res.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(request.body);
  });
}

/** Runs `items` through `run` with at most `limit` at a time. */
export async function inPool<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
