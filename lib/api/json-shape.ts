// The shape check every JSON request body passes before anything parses it
// (docs/limits.md "JSON bodies"): nesting deeper than MAX_JSON_DEPTH, or more
// values than MAX_JSON_VALUES, is refused as the bytes arrive. JSON.parse of a
// body nested millions deep stalls the event loop for seconds and keeps the
// memory it grew; this scan is one pass over each chunk with a few integers of
// state, so a hostile body costs no more than reading it.
import type { IncomingMessage } from "node:http";
import { AppError } from "@/lib/api/errors";

/** Deepest nesting of arrays and objects a body may have; real bodies stay under 10. */
export const MAX_JSON_DEPTH = 64;
/** Most values (array elements and object members, counted by their separators) a body may hold. */
export const MAX_JSON_VALUES = 1_000_000;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Counts depth and values across chunks, skipping string contents (escapes included).
 * It does not validate JSON: JSON.parse still does, on the bodies this lets through.
 */
export class JsonShapeScanner {
  private depth = 0;
  private values = 0;
  private inString = false;
  private escaped = false;

  /** Feeds the next bytes; returns the refusal once a bound is passed, else null. */
  push(chunk: Uint8Array): AppError | null {
    let { depth, values, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++depth > MAX_JSON_DEPTH) return tooDeep();
        values++;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth = Math.max(0, depth - 1);
      else if (byte === COMMA && ++values > MAX_JSON_VALUES) return tooMany();
    }
    Object.assign(this, { depth, values, inString, escaped });
    return values > MAX_JSON_VALUES ? tooMany() : null;
  }
}

function tooDeep(): AppError {
  return new AppError("invalid_json", `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`, {
    detail: "json_too_deep",
  });
}

function tooMany(): AppError {
  return new AppError("invalid_json", `Request body holds more than ${MAX_JSON_VALUES} JSON values`, {
    detail: "json_too_large",
  });
}

// Bodies that are not JSON (uploads, forms of files) are not scanned; every other type is,
// since clients such as curl send JSON labelled as a form or with no type at all.
const NOT_JSON = /^(multipart\/|application\/octet-stream|image\/|audio\/|video\/|application\/(gzip|zip|x-tar))/i;

export function scansAsJson(contentType: string | undefined): boolean {
  return !contentType || !NOT_JSON.test(contentType.trim());
}

/**
 * Watches a request body as Node's HTTP parser hands it over (wrapping `push`, which every
 * chunk passes before any reader, however it reads, can see it; so the scan runs even while
 * the route has not started reading). Past the first bound, no further chunk nor the end
 * reaches the reader, the rest is drained (push keeps answering true, so the socket keeps
 * being read and nothing is buffered), and `onRefused` is called once the body has ended
 * (a client reads the answer only after sending) or at once past `drainBytes`.
 */
export function watchJsonShape(req: IncomingMessage, drainBytes: number, onRefused: (error: AppError) => void): void {
  const scanner = new JsonShapeScanner();
  let refusal: AppError | null = null;
  let drained = 0;
  let answered = false;
  const answer = () => {
    if (answered || !refusal) return;
    answered = true;
    onRefused(refusal);
  };
  const push = req.push.bind(req);
  req.push = ((chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (chunk === null) {
      if (!refusal) return push(chunk, encoding);
      answer();
      return false;
    }
    if (!refusal) {
      refusal = scanner.push(chunk);
      if (!refusal) return push(chunk, encoding);
    }
    drained += chunk.length;
    if (drained > drainBytes) answer();
    return true;
  }) as typeof req.push;
}
