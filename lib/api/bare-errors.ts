// JSON for the error answers the JSON surfaces would otherwise give with no body:
// Node's own answers to requests its parser refuses (an unknown method such as
// TRACK, a header block too large, a request timeout) and Next's empty 405 for a
// method a route does not export or 400s it answers itself. Found by the
// hostile-request suite; each answer keeps its status, in the surface's envelope.
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { AppError, ERROR_STATUS, type ErrorCode } from "@/lib/api/errors";
import { renderError } from "@/lib/api/render";
import { requestIdFrom } from "@/lib/api/request";
import { surfaceOf } from "@/lib/api/edge";

const MESSAGES: Record<number, string> = {
  400: "Bad request: the server could not parse it",
  404: "No such path",
  405: "Method not allowed on this path",
  408: "Request timed out before it was fully received",
  413: "Request is too large",
  431: "Request header fields are too large",
};

function bareError(status: number): AppError {
  const code = (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ?? "invalid_request") as ErrorCode;
  const error = new AppError(code, MESSAGES[status] ?? STATUS_CODES[status] ?? "Request refused");
  // Codes without an AppError of their own (408, 431) keep their status.
  if (error.status !== status) Object.defineProperty(error, "status", { value: status });
  return error;
}

/** Node's answer to a request its parser refused (the server's `clientError`), as JSON. */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const requestLine = err.rawPacket?.toString("latin1").split("\r\n", 1)[0] ?? "";
  const path = requestLine.split(" ")[1] ?? "/";
  if (socket.writable && (socket as Duplex & { bytesWritten?: number }).bytesWritten === 0) {
    const { headers, body } = renderError(bareError(status), surfaceOf(path), requestIdFrom(null));
    const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`];
    for (const [name, value] of Object.entries({ ...headers, "content-length": String(Buffer.byteLength(body)), connection: "close" })) {
      lines.push(`${name}: ${value}`);
    }
    socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
