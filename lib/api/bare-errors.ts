// JSON for the error answers the JSON surfaces would otherwise give with no body:
// Node's own answers to requests its parser refuses (an unknown method such as
// TRACK, a header block too large, a request timeout) and Next's empty 405 for a
// method a route does not export or 400s it answers itself. Found by the
// hostile-request suite; each answer keeps its status, in the surface's envelope.
import { STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { AppError, ERROR_STATUS, type ErrorCode } from "@/lib/api/errors";
import { renderError, type Surface } from "@/lib/api/render";
import { requestIdFrom } from "@/lib/api/request";
import { surfaceOf } from "@/lib/api/edge";

const MESSAGES: Record<number, string> = {
  400: "Bad request: the server could not parse it",
  404: "No such path",
  405: "Method not allowed on this path",
  408: "Request timed out before it was fully received",
  413: "Request is too large",
  417: "Expectation failed: the only Expect value served is 100-continue",
  431: "Request header fields are too large",
};

/**
 * An AppError answered with `status` (the code of that status when there is one), for answers Node or Next would give
 * bare.
 */
export function bareError(status: number, message?: string): AppError {
  const code = (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ?? "invalid_request") as ErrorCode;
  const error = new AppError(code, message ?? MESSAGES[status] ?? STATUS_CODES[status] ?? "Request refused");
  // Codes without an AppError of their own (408, 431) keep their status.
  if (error.status !== status) Object.defineProperty(error, "status", { value: status });
  return error;
}

/** Node's answer to a request its parser refused (the server's `clientError`), as JSON. */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const requestLine = err.rawPacket?.toString("latin1").split("\r\n", 1)[0] ?? "";
  const path = requestLine.split(" ")[1] ?? "/";
  // As Node's own handler decides: answer unless a response is already going out on this
  // socket. Not `bytesWritten`, which a keep-alive socket has from its earlier answers.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { headers, body } = renderError(bareError(status), surfaceOf(path), requestIdFrom(null));
    const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`];
    for (const [name, value] of Object.entries({
      ...headers,
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
    })) {
      lines.push(`${name}: ${value}`);
    }
    socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/**
 * Next's own error answers without a body (the 405 of a method a route does not export,
 * the 400 of OPTIONS on a page) in the surface's envelope, keeping the status. Next
 * either ends them bare or flushes their headers first, so the decision is taken where
 * the headers go out (writeHead, which Node's implicit headers also call), and the body
 * Next sends after it (none) is replaced. Under a JSON surface (`jsonSurface`), Next's
 * HTML not-found page (no route matched: `/COMPUTERS`, `/agent/anything`) is replaced
 * the same way, so every unknown path there is a JSON 404.
 */
export function jsonForBareErrors(res: ServerResponse, surface: Surface, requestId: string, jsonSurface = false): void {
  let replacement: string | null = null;
  const headerArgType = (headerArg: unknown) =>
    headerArg && typeof headerArg === "object"
      ? Object.entries(headerArg).find(([name]) => name.toLowerCase() === "content-type")?.[1]
      : undefined;
  const bare = (status: number, headerArg: unknown) =>
    status >= 400 && !res.hasHeader("content-type") && headerArgType(headerArg) === undefined;
  const htmlNotFound = (status: number, headerArg: unknown) =>
    jsonSurface &&
    status === 404 &&
    /text\/html/.test(String(headerArgType(headerArg) ?? res.getHeader("content-type") ?? ""));
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headerArg = rest.find((arg) => typeof arg === "object");
    if (replacement === null && (bare(status, headerArg) || htmlNotFound(status, headerArg))) {
      const { headers, body } = renderError(bareError(status), surface, requestId);
      // Headers passed to writeHead win over set ones: drop the page's own type and length.
      if (headerArg && !Array.isArray(headerArg)) {
        for (const name of Object.keys(headerArg))
          if (/^(content-type|content-length)$/i.test(name)) delete (headerArg as Record<string, unknown>)[name];
      }
      replacement = body;
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader("content-length", Buffer.byteLength(body));
      res.removeHeader("transfer-encoding");
      // Next's compression (installed after this wrapper) has labelled the page it compresses by now;
      // the replacement is sent as is, so the label would make every client fail to decode it.
      res.removeHeader("content-encoding");
    }
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    if (replacement === null) return write(...args);
    const done = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    if (done) process.nextTick(done);
    return true;
  }) as typeof res.write;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    if (!res.headersSent && bare(res.statusCode, null)) res.writeHead(res.statusCode);
    return replacement === null ? end(...args) : end(replacement);
  }) as typeof res.end;
}
