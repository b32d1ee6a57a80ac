// Runs the SDK's `debug` action (lib/computers/actions/debug-action.ts) on a session
// with the `exec` capability: the command runs like exec/sync (as the desktop's
// user, inside the desktop), and its buffered output comes back in an
// ActionResult. A browser session is a context in a shared Chromium, with no
// shell of its own to run a command in: that is a 400 saying so (docs/actions.md).
import { ActionError } from "@/lib/computers/actions/action-error";
import { debugResponse, type DebugAction } from "@/lib/computers/actions/debug-action";
import type { ComputerHandle, ActionOutcome } from "@/lib/computers/driver";
import { getEnv } from "@/lib/env";

export async function runDebug(handle: ComputerHandle, action: DebugAction): Promise<ActionOutcome> {
  // The action layer refuses debug on a session without exec first (assertKindAllows); this keeps the driver contract
  // honest.
  if (!handle.exec)
    throw new ActionError("wrong_kind", `debug runs a shell command; a ${handle.kind} session has no shell`, {
      param: "type",
    });
  const maxBytes = Math.min(action.max_output_length, getEnv().DESKTOP_EXEC_MAX_OUTPUT_BYTES);
  const run = await handle.exec.run({
    command: action.command,
    cwd: action.cwd,
    env: action.env,
    timeoutSeconds: action.timeout_seconds,
    maxOutputBytes: maxBytes,
  });
  const response = debugResponse(run.stdout, run.stderr, maxBytes);
  return {
    result: {
      debug_response: response.text,
      stdout: run.stdout,
      stderr: run.stderr,
      exit_code: run.exit_code,
      timed_out: run.timed_out,
      truncated: run.truncated || response.cut,
    },
  };
}
