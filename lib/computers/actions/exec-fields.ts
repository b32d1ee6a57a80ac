// The fields a shell command is given by (exec/sync, the exec stream, and the
// SDK's deprecated `debug`): one definition, so every path checks the same way.
import { z } from "zod";
import { textWithoutNul } from "@/lib/api/request";

export const EXEC_DEFAULT_TIMEOUT_SECONDS = 60;
export const EXEC_MAX_TIMEOUT_SECONDS = 3600;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const execCommand = textWithoutNul(100_000, 1);
export const execCwd = textWithoutNul(4096, 1);
export const execEnv = z
  .record(z.string().regex(ENV_NAME), textWithoutNul(100_000), {
    error: (issue) =>
      issue.code === "invalid_key"
        ? "not a valid environment variable name (letters, digits and _, not starting with a digit)"
        : undefined,
  })
  .refine((env) => Object.keys(env).length <= 256, "at most 256 variables");
export const execTimeoutSeconds = z.number().int().min(1).max(EXEC_MAX_TIMEOUT_SECONDS);
