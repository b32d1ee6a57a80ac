// What the custom server refuses before any route or auth runs: requests that
// Next would answer with a 500 or an HTML page (TRACE, malformed percent-
// encoding, NUL bytes, dot segments under the JSON surfaces), bodies past
// MAX_REQUEST_BODY_BYTES (counted as they arrive, never buffered), and the
// security headers every answer carries. Pure functions plus `limitBody`, so
// the server (outside Next's bundle) and unit tests share them.
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AppError } from "@/lib/api/errors";
import { renderError, type Surface } from "@/lib/api/render";
import { requestIdFrom } from "@/lib/api/request";

/** Methods no route serves: TRACE echoes requests (cross-site tracing), CONNECT and TRACK are proxy verbs. */
const REFUSED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);
export const SERVED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const SERVED = new Set(SERVED_METHODS.split(", "));

/**
 * The JSON surfaces by path prefix (matched without regard to case, as `/V1/models` must
 * not fall through to an HTML page): /v1 answers in the OpenAI envelope, the others in
 * Cabin's. A path under none of them is the dashboard's.
 */
const JSON_SURFACE_PREFIXES: readonly [RegExp, Surface][] = [
  [/^\/(v1|chat)(\/|$)/i, "openai"],
  [/^\/(computers|agent|api|mcp)(\/|$)/i, "api"],
];

/** The envelope of the JSON surface `url` is under, or null for the dashboard's pages. */
export function jsonSurfaceOf(url: string): Surface | null {
  const path = url.split("?", 1)[0];
  for (const [prefix, surface] of JSON_SURFACE_PREFIXES) if (prefix.test(path)) return surface;
  return null;
}

/** /v1 answers in the OpenAI envelope; everything else in Cabin's. */
export function surfaceOf(url: string): Surface {
  return jsonSurfaceOf(url) ?? "api";
}

/**
 * Segments of letters, digits, '-', '_' and '.' not starting with '.', none empty but a last one: nothing to decode or
 * refuse.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/;

/** The refusal for a request line, or null when routing may go on. `url` is the raw request target. */
export function refuseRequestLine(method: string, url: string): AppError | null {
  // WebDAV and other verbs Node parses (PROPFIND, LOCK, MKCOL…) would reach Next, which answers an empty 400.
  if (REFUSED_METHODS.has(method.toUpperCase()) || !SERVED.has(method)) {
    return new AppError("method_not_allowed", `Method ${method} is not allowed`, {
      headers: { allow: SERVED_METHODS },
    });
  }
  const path = url.split("?", 1)[0];
  // Nearly every request (each /v1 call among them): skips splitting and decoding each segment.
  if (PLAIN_PATH.test(path)) return null;
  if (!path.startsWith("/"))
    return new AppError("invalid_request", "The request target must be a path starting with '/'");
  const segments = path.split("/");
  // `/computers//tabs`: an empty id, which Next would redirect to another route.
  if (jsonSurfaceOf(path) !== null && segments.slice(1, -1).includes(""))
    return new AppError("not_found", "No such path: it has an empty segment");
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return new AppError(
        "invalid_request",
        `Malformed percent-encoding in the path segment '${segment.slice(0, 64)}'`,
      );
    }
    if (decoded.includes("\0")) return new AppError("invalid_request", "The path contains a NUL byte");
    // Next would normalize these into another route (or its HTML 404): a JSON API names no such paths.
    if ((decoded === "." || decoded === "..") && (jsonSurfaceOf(path) ?? jsonSurfaceOf(resolvedPath(path))) !== null) {
      return new AppError("not_found", "No such path: dot segments are not resolved");
    }
  }
  return null;
}

/** `path` with its dot segments resolved, as Next routes it (`/x/../api/y` is `/api/y`). */
function resolvedPath(path: string): string {
  return URL.canParse(path, "http://cabin.invalid") ? new URL(path, "http://cabin.invalid").pathname : path;
}

/**
 * The request target without its trailing slashes under a JSON surface (`/api/keys/` is `/api/keys`), or null
 * to keep it: Next would answer an empty 308 redirect there, which API clients (and POST bodies) do not follow.
 */
export function withoutTrailingSlash(url: string): string | null {
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  if (path.length < 2 || !path.endsWith("/") || jsonSurfaceOf(path) === null) return null;
  return `${path.replace(/\/+$/, "")}${query < 0 ? "" : url.slice(query)}`;
}

/** A body declared (content-length) larger than the limit, refused before it is read. */
export function refuseDeclaredLength(contentLength: string | undefined, limit: number): AppError | null {
  if (contentLength === undefined) return null;
  const length = Number(contentLength);
  return Number.isFinite(length) && length > limit ? tooLargeError(limit) : null;
}

export function tooLargeError(limit: number): AppError {
  const size = limit >= 1024 * 1024 ? `${Math.round((limit / 1024 / 1024) * 10) / 10} MiB` : `${limit} bytes`;
  return new AppError("payload_too_large", `Request body is larger than ${size}`, { detail: "payload_too_large" });
}

/**
 * How much of a too-large body is read (and thrown away) before answering 413.
 * Most clients (fetch among them) send the whole body before they read the
 * answer: closing on them mid-upload is an EPIPE instead of a 413. Past this,
 * the sender is abusive and the socket is closed at once.
 */
export const drainLimit = (limit: number) => limit * 4;

/**
 * Counts a body as it flows (chunked bodies declare no length). Past `limit`
 * no chunk reaches the reader any more; the rest is drained, and `onTooLarge`
 * is called once: when the body ends, or at once past drainLimit. Wrapping
 * `emit` sees every chunk whichever way the reader consumes the stream
 * (events, read(), or Readable.toWeb in Next).
 */
export function limitBody(req: IncomingMessage, limit: number, onTooLarge: () => void): void {
  let received = 0;
  let refused = false;
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    onTooLarge();
  };
  const emit = req.emit.bind(req);
  req.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === "data") {
      received += (args[0] as Buffer).length;
      if (received > limit && !refused) {
        refused = true;
        req.resume();
      }
      if (refused) {
        if (received > drainLimit(limit)) answer();
        return false;
      }
    }
    if (refused && event === "end") {
      answer();
      return false;
    }
    return emit(event, ...args);
  }) as typeof req.emit;
}

/**
 * Headers on every answer. The dashboard may not be framed by anyone (clickjacking
 * of the keys page; the session viewer included). HSTS only when the request came
 * over HTTPS, since a plain-HTTP deployment must stay reachable.
 */
export function securityHeaders(overHttps: boolean, dev = false): Record<string, string> {
  // Next's App Router hydrates through inline scripts (no nonce without dynamic rendering of
  // every page), so inline is allowed but no other origin is; the dev server also evaluates code.
  const scripts = `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`;
  return {
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "content-security-policy": `${scripts}; frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'`,
    ...(overHttps ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** The request id of a raw Node request (an upgrade, a fast path): as the server set it, or a fresh one. */
export function incomingRequestId(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return requestIdFrom(typeof given === "string" ? given : null);
}

/**
 * Refuses an upgrade request (CDP, live view, VNC, or one the edge turns away)
 * with the HTTP error answer a plain request would get, then closes the socket.
 */
export function refuseUpgrade(socket: Duplex, error: unknown, requestId: string, surface: Surface = "api"): void {
  const { status, headers, body } = renderError(error, surface, requestId);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`];
  for (const [name, value] of Object.entries({
    ...headers,
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
  })) {
    lines.push(`${name}: ${value}`);
  }
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}
