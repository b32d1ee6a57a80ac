// POST /computers body (docs/contract.md "Sessions", with its aliases),
// parsed into one normalized, fully defaulted shape. Pure: unit tested.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import type { ComputerKind } from "@/lib/computers/driver";

export const DISPLAY_BOUNDS = { minWidth: 320, maxWidth: 3840, minHeight: 240, maxHeight: 2160 } as const;
export const DEFAULT_DISPLAY = { width: 1280, height: 720, scale: 1 } as const;
export const DEFAULT_INACTIVITY_TIMEOUT_SECONDS = 120;
// A day: longer idle timeouts are almost certainly a unit mistake (ms for s).
export const MAX_INACTIVITY_TIMEOUT_SECONDS = 86_400;

const seconds = z.number().int().min(1);

const display = z.strictObject({
  width: z.number().int().min(DISPLAY_BOUNDS.minWidth).max(DISPLAY_BOUNDS.maxWidth).optional(),
  height: z.number().int().min(DISPLAY_BOUNDS.minHeight).max(DISPLAY_BOUNDS.maxHeight).optional(),
  scale: z.number().min(0.5).max(4).optional(),
});

export const createBodySchema = z.strictObject({
  kind: z.enum(["browser", "desktop"]).optional(),
  timeout_seconds: seconds.optional(),
  max_lifetime_seconds: seconds.optional(),
  inactivity_timeout_seconds: seconds.max(MAX_INACTIVITY_TIMEOUT_SECONDS).optional(),
  auto_kill: z.boolean().optional(),
  idle_timeout_enabled: z.boolean().optional(),
  display: display.nullish(),
  context_id: z.string().max(256).nullish(),
  persistent: z.boolean().optional(),
  environment_id: z.string().min(1).max(128).nullish(),
  use_advanced_proxy: z.boolean().optional(),
  stealth: z.boolean().optional(),
  /** Record the session's whole life as one replay (docs/replays.md). */
  record: z.boolean().optional(),
});

export type CreateBody = z.infer<typeof createBodySchema>;

export interface CreateOptions {
  kind: ComputerKind;
  maxLifetimeSeconds: number;
  inactivityTimeoutSeconds: number;
  autoKill: boolean;
  display: { width: number; height: number; scale: number };
  contextId: string | null;
  persistent: boolean;
  environmentId: string | null;
  useAdvancedProxy: boolean;
  stealth: boolean;
  record: boolean;
}

/** Validates and defaults a create body. `planMaxSeconds` is PLAN_MAX_LIFETIME_SECONDS. */
export function parseCreateOptions(body: unknown, planMaxSeconds: number): CreateOptions {
  const b = parseWith(createBodySchema, body ?? {});
  // When both spellings are given, the newer name wins (docs/contract.md).
  const lifetimeParam = b.max_lifetime_seconds !== undefined ? "max_lifetime_seconds" : "timeout_seconds";
  const lifetime = b.max_lifetime_seconds ?? b.timeout_seconds ?? planMaxSeconds;
  if (lifetime > planMaxSeconds) {
    throw new AppError(
      "invalid_request",
      `Invalid value for '${lifetimeParam}': ${lifetime} exceeds the plan maximum of ${planMaxSeconds} seconds`,
      { param: lifetimeParam },
    );
  }
  const kind = b.kind ?? "browser";
  if (kind === "desktop") {
    for (const field of ["use_advanced_proxy", "stealth"] as const) {
      if (b[field]) {
        throw new AppError("invalid_request", `'${field}' applies to browser sessions only, not desktop sessions`, {
          param: field,
        });
      }
    }
  }
  return {
    kind,
    maxLifetimeSeconds: lifetime,
    inactivityTimeoutSeconds: b.inactivity_timeout_seconds ?? DEFAULT_INACTIVITY_TIMEOUT_SECONDS,
    autoKill: b.idle_timeout_enabled ?? b.auto_kill ?? true,
    display: {
      width: b.display?.width ?? DEFAULT_DISPLAY.width,
      height: b.display?.height ?? DEFAULT_DISPLAY.height,
      scale: b.display?.scale ?? DEFAULT_DISPLAY.scale,
    },
    contextId: b.context_id ?? null,
    persistent: b.persistent ?? false,
    environmentId: b.environment_id ?? null,
    useAdvancedProxy: b.use_advanced_proxy ?? false,
    stealth: b.stealth ?? false,
    record: b.record ?? false,
  };
}
