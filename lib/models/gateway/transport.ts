// The one adaptation of an incoming request to ModelHttpRequest, for both ways
// /v1 is served: the custom server's fast path hands a Node IncomingMessage,
// Next's catch-all route a Web Request. Both bodies are read as Node streams
// by `readBoundedText`, so the 32 MiB limit is enforced in one place.
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { requestIdFrom } from "@/lib/api/request";
import { MAX_BODY_BYTES, tooLarge, type ModelHttpRequest } from "@/lib/models/gateway/http";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

/**
 * The body as UTF-8 text; a 413 when the declared length or the bytes read
 * pass MAX_BODY_BYTES (the rest is drained, not buffered). Read with events:
 * an async iterator would cost a promise per chunk on the hot path.
 */
export function readBoundedText(body: Readable | null, declaredLength: string | null): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(declaredLength ?? 0) > MAX_BODY_BYTES) return reject(tooLarge());
    if (!body) return resolve("");
    const chunks: Buffer[] = [];
    let size = 0;
    body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        body.removeAllListeners("data");
        body.resume();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    body.once("end", () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")),
    );
    body.once("error", reject);
  });
}

export interface IncomingModelRequest {
  method: string;
  pathname: string;
  /** A request header by lower-case name. */
  header(name: string): string | null;
  /** The body as a Node stream (null: none); called once, when a handler reads the body. */
  body(): Readable | null;
  signal: RequestSignal;
}

export function toModelHttpRequest(incoming: IncomingModelRequest): ModelHttpRequest {
  return {
    method: incoming.method,
    pathname: incoming.pathname,
    requestId: requestIdFrom(incoming.header("x-request-id")),
    header: incoming.header,
    text: () => readBoundedText(incoming.body(), incoming.header("content-length")),
    signal: incoming.signal,
  };
}

/** A Web Request's body as a Node stream, for `readBoundedText`. */
export function webBodyStream(body: ReadableStream<Uint8Array> | null): Readable | null {
  return body ? Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>) : null;
}
