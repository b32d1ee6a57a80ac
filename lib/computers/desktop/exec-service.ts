// POST /computers/{id}/exec/sync (extensions.md): a shell command inside a desktop,
// as the desktop user, with a timeout and bounded output. Browser sessions → 400.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { findOwnedComputer, mapComputerError, reachSession } from "@/lib/computers/access";
import { asDesktop } from "@/lib/computers/desktop/desktop-driver";
import type { ExecResult } from "@/lib/computers/desktop/desktop-computer";
import { getEnv } from "@/lib/env";

export const EXEC_DEFAULT_TIMEOUT_SECONDS = 60;
export const EXEC_MAX_TIMEOUT_SECONDS = 3600;

const execBody = z.object({
  command: z.string().min(1).max(100_000),
  cwd: z.string().min(1).max(4096).optional(),
  timeout_seconds: z.number().int().min(1).max(EXEC_MAX_TIMEOUT_SECONDS).optional(),
});

export async function execSync(input: { principal: ApiPrincipal; id: string; body: unknown }): Promise<ExecResult> {
  const body = parseWith(execBody, input.body);
  const row = await findOwnedComputer(input.principal, input.id);
  if (row.kind !== "desktop") {
    throw new AppError("invalid_request", `exec is for desktop sessions; '${row.id}' is a ${row.kind} session`, {
      detail: "desktop_only",
    });
  }
  const reached = await reachSession(input.principal, input.id);
  const desktop = asDesktop(reached.handle);
  if (!desktop) throw new AppError("internal", `Session '${row.id}' has no desktop handle`);
  try {
    return await desktop.exec({
      command: body.command,
      cwd: body.cwd,
      timeoutSeconds: body.timeout_seconds ?? EXEC_DEFAULT_TIMEOUT_SECONDS,
      maxOutputBytes: getEnv().DESKTOP_EXEC_MAX_OUTPUT_BYTES,
    });
  } catch (err) {
    const mapped = mapComputerError(err, reached.live);
    if (mapped instanceof AppError) throw mapped;
    throw new AppError("upstream_error", mapped.actionFailed, { detail: "exec_failed" });
  }
}
