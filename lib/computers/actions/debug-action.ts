// The public SDK's `debug` action (docs/actions.md): its deprecated buffered
// shell command. The SDK sends it two ways: POST /computers/{id}/debug with the
// fields at the top level, and `{type: "debug", debug: {command, …}}` through
// /execute and /batch. Both become one shape; its defaults are the SDK's.
import { z } from "zod";
import { execCommand, execCwd, execEnv, execTimeoutSeconds } from "@/lib/computers/actions/exec-fields";

export const DEBUG_DEFAULT_TIMEOUT_SECONDS = 120;
export const DEBUG_DEFAULT_MAX_OUTPUT_LENGTH = 65_536;
const MAX_OUTPUT_LENGTH = 16 * 1024 * 1024;

const fields = {
  command: execCommand.optional(),
  cwd: execCwd.optional(),
  env: execEnv.optional(),
  timeout_seconds: execTimeoutSeconds.optional(),
  max_output_length: z.number().int().min(1).max(MAX_OUTPUT_LENGTH).optional(),
  request_id: z.string().max(128).optional(),
  // Streamed output is POST /computers/{id}/exec; `debug` answers once, buffered.
  stream: z
    .literal(false, {
      error: "debug answers once with the buffered output; for streamed output use POST /computers/{id}/exec",
    })
    .optional(),
};

export const debugAction = z
  .strictObject({
    type: z.literal("debug"),
    debug: z.strictObject(fields).optional(),
    ...fields,
    tab_id: z.string().min(1).max(64).optional(),
    include_context: z.boolean().optional(),
  })
  .transform((a, ctx) => {
    const inner = a.debug ?? {};
    const command = inner.command ?? a.command;
    if (!command) {
      ctx.addIssue({
        code: "custom",
        message: "give the shell command to run (command, or debug.command)",
        path: ["command"],
      });
      return z.NEVER;
    }
    return {
      type: "debug" as const,
      command,
      cwd: inner.cwd ?? a.cwd,
      env: inner.env ?? a.env,
      timeout_seconds: inner.timeout_seconds ?? a.timeout_seconds ?? DEBUG_DEFAULT_TIMEOUT_SECONDS,
      max_output_length: inner.max_output_length ?? a.max_output_length ?? DEBUG_DEFAULT_MAX_OUTPUT_LENGTH,
    };
  });

export type DebugAction = z.output<typeof debugAction>;

/**
 * The SDK reads `result.debug_response` (its get_debug_response): stdout, then stderr, within max_output_length bytes.
 */
export function debugResponse(stdout: string, stderr: string, maxBytes: number): { text: string; cut: boolean } {
  const all = Buffer.from(
    stderr ? `${stdout}${stdout && !stdout.endsWith("\n") ? "\n" : ""}${stderr}` : stdout,
    "utf8",
  );
  if (all.length <= maxBytes) return { text: all.toString("utf8"), cut: false };
  let end = maxBytes;
  while (end > 0 && (all[end] & 0xc0) === 0x80) end--; // never cut a UTF-8 character in two
  return { text: all.subarray(0, end).toString("utf8"), cut: true };
}
