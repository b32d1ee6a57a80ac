// POST /computers/{id}/exec (docs/contract.md "Streams"): the command of
// exec/sync with its output streamed as NDJSON — `{"type":"stdout"|"stderr","data"}`
// lines in the order produced, then one `{"type":"exit","code"}` (-1 on timeout or
// an abnormal end). Once authenticated the answer is always HTTP 200: a bad body or
// a session that cannot run it is one `{"type":"error","code","message"}` line.
// Output past DESKTOP_EXEC_MAX_OUTPUT_BYTES (both streams together) is not sent;
// the exit line still follows. A client that goes away kills the process group.
import { StringDecoder } from "node:string_decoder";
import { parseWith } from "@/lib/api/request";
import { toAppError } from "@/lib/api/render";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { reachSession } from "@/lib/computers/sessions/access";
import { execBody, execOf } from "@/lib/computers/desktop/exec-service";
import { asAppError } from "@/lib/computers/actions/failures";
import { getSessionManager } from "@/lib/computers/registry";
import { getEnv } from "@/lib/env";

export const EXEC_STREAM_DEFAULT_TIMEOUT_SECONDS = 120;
/** Streaming output is activity, recorded at most this often. */
const TOUCH_EVERY_MS = 1000;

export type ExecStreamLine =
  | { type: "stdout" | "stderr"; data: string }
  | { type: "exit"; code: number }
  | { type: "error"; code: string; message: string };

export interface ExecStreamInput {
  /** Only the organization matters: an API key's, or a dashboard member's (execStreamAs). */
  principal: Pick<ApiPrincipal, "organizationId">;
  id: string;
  requestId: string;
  readBody: () => Promise<unknown>;
  /** The request's signal; aborting it (or cancelling the stream) kills the command. */
  signal: AbortSignal;
}

/** The NDJSON body of POST /computers/{id}/exec. */
export function execStream(input: ExecStreamInput): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  input.signal.addEventListener("abort", () => abort.abort(), { once: true });
  const encoder = new TextEncoder();
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (line: ExecStreamLine) => {
        if (open) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      // Not awaited: the first lines must flow while the command runs.
      void runStreamed(input, send, abort.signal)
        .catch((err) => {
          const appError = toAppError(err, input.requestId);
          send({ type: "error", code: appError.code, message: appError.message });
        })
        .finally(() => {
          if (!open) return;
          open = false;
          controller.close();
        });
    },
    cancel() {
      open = false;
      abort.abort();
    },
  });
}

async function runStreamed(input: ExecStreamInput, send: (line: ExecStreamLine) => void, signal: AbortSignal) {
  const body = parseWith(execBody, await input.readBody());
  const reached = await reachSession(input.principal, input.id);
  const exec = execOf(reached);
  const manager = getSessionManager();
  const sessionId = reached.live.id;
  let lastTouch = Date.now();
  const decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  const forward = (stream: "stdout" | "stderr", text: string) => {
    if (text) send({ type: stream, data: text });
  };
  let end;
  try {
    end = await exec.stream(
      {
        command: body.command,
        cwd: body.cwd,
        env: body.env,
        timeoutSeconds: body.timeout_seconds ?? EXEC_STREAM_DEFAULT_TIMEOUT_SECONDS,
        maxOutputBytes: getEnv().DESKTOP_EXEC_MAX_OUTPUT_BYTES,
      },
      {
        signal,
        onOutput: (stream, data) => {
          forward(stream, decoders[stream].write(data));
          manager.events.publish(sessionId, {
            event: "exec_output",
            data: { request_id: input.requestId, data: data.toString("base64"), is_stderr: stream === "stderr" },
          });
          if (Date.now() - lastTouch >= TOUCH_EVERY_MS) {
            lastTouch = Date.now();
            void manager.touch(reached.live).catch(() => {});
          }
        },
      },
    );
  } catch (err) {
    throw asAppError(err, reached.live, "exec_failed");
  }
  forward("stdout", decoders.stdout.end());
  forward("stderr", decoders.stderr.end());
  // A command killed because its session is ending did not end normally either.
  const sessionEnding = manager.isEnding(reached.live);
  const code = sessionEnding ? -1 : end.exitCode;
  const stopped = sessionEnding ? "session_ended" : signal.aborted ? "by_caller" : undefined;
  manager.events.publish(sessionId, {
    event: "exec_exit",
    data: { request_id: input.requestId, exit_code: code, command: body.command, ...(stopped ? { stopped } : {}) },
  });
  send({ type: "exit", code });
}
