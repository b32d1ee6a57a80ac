// POST /computers/{id}/exec/sync (docs/contract.md): a shell command inside a computer
// that has the `exec` capability (desktops), as its user, with extra environment
// variables, a timeout and bounded output. Other sessions → 400. The streamed
// variant (POST /computers/{id}/exec) is execStream, on the same body and checks.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { reachSession, type Reached } from "@/lib/computers/sessions/access";
import type { ExecCapability, ExecResult } from "@/lib/computers/driver";
import { asAppError } from "@/lib/computers/actions/failures";
import { getSessionManager } from "@/lib/computers/registry";
import { getEnv } from "@/lib/env";
import {
  EXEC_DEFAULT_TIMEOUT_SECONDS,
  execCommand,
  execCwd,
  execEnv,
  execTimeoutSeconds,
} from "@/lib/computers/actions/exec-fields";

/** The body of exec/sync and of the exec stream (POST /computers/{id}/exec). */
export const execBody = z.strictObject({
  command: execCommand,
  cwd: execCwd.optional(),
  env: execEnv.optional(),
  timeout_seconds: execTimeoutSeconds.optional(),
});

/** A command as POST /computers/{id}/exec/sync takes it, typed for in-process clients (MCP's exec tool). */
export type ExecInput = z.input<typeof execBody>;

/** The session's exec capability; other kinds are a 400 naming the session's kind. */
export function execOf(reached: Reached): ExecCapability {
  const exec = reached.handle.exec;
  if (!exec) {
    throw new AppError(
      "invalid_request",
      `exec is for desktop sessions; '${reached.row.id}' is a ${reached.row.kind} session`,
      {
        detail: "desktop_only",
      },
    );
  }
  return exec;
}

/** exec/sync as a typed command: the command checked as the route checks its body. */
export function runCommand(input: { principal: ApiPrincipal; id: string; requestId: string; command: ExecInput }) {
  return execSync({ ...input, body: input.command });
}

export async function execSync(input: {
  principal: ApiPrincipal;
  id: string;
  requestId: string;
  body: unknown;
}): Promise<ExecResult> {
  const body = parseWith(execBody, input.body);
  const reached = await reachSession(input.principal, input.id);
  const exec = execOf(reached);
  let result: ExecResult;
  try {
    result = await exec.run({
      command: body.command,
      cwd: body.cwd,
      env: body.env,
      timeoutSeconds: body.timeout_seconds ?? EXEC_DEFAULT_TIMEOUT_SECONDS,
      maxOutputBytes: getEnv().DESKTOP_EXEC_MAX_OUTPUT_BYTES,
    });
  } catch (err) {
    throw asAppError(err, reached.live, "exec_failed");
  }
  publishExecResult(reached.live.id, input.requestId, body.command, result);
  return result;
}

/** exec/sync on the events stream: its collected output, then its exit (one chunk per stream). */
function publishExecResult(sessionId: string, requestId: string, command: string, result: ExecResult) {
  // Published even with no subscriber: the session's EventHistory keeps it for later watchers.
  const events = getSessionManager().events;
  for (const [text, isStderr] of [
    [result.stdout, false],
    [result.stderr, true],
  ] as const) {
    if (text)
      events.publish(sessionId, {
        event: "exec_output",
        data: { request_id: requestId, data: Buffer.from(text).toString("base64"), is_stderr: isStderr },
      });
  }
  events.publish(sessionId, {
    event: "exec_exit",
    data: { request_id: requestId, exit_code: result.exit_code, command },
  });
}
