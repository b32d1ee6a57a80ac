// The operator CLI's `org quota` command: per-organization overrides of the session
// quotas (QuotaGate). Only the operator sets them; owners see them read-only in Settings.
import type { QuotaChange, QuotaView } from "../lib/computers/sessions/quotas-store";

export const QUOTA_HELP =
  `  npm run cli -- org quota SLUG [--browser N|default] [--desktop N|default] [--creates-per-minute N|default] ` +
  `[--json]
      Concurrent browser and desktop sessions and creates per minute (0 = no limit) for one
      organization; "default" returns to the server's setting. Without options: shows them.
`;

function quotaValue(option: string, value: string | undefined, min: number): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "default") return null;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min)
    throw new Error(`--${option} must be an integer ≥ ${min} or "default" (got ${value})`);
  return n;
}

export function quotaChangeFromArgs(values: {
  browser?: string;
  desktop?: string;
  "creates-per-minute"?: string;
}): QuotaChange {
  const change: QuotaChange = {};
  const browser = quotaValue("browser", values.browser, 1);
  const desktop = quotaValue("desktop", values.desktop, 1);
  const rate = quotaValue("creates-per-minute", values["creates-per-minute"], 0);
  if (browser !== undefined) change.maxBrowserSessions = browser;
  if (desktop !== undefined) change.maxDesktopSessions = desktop;
  if (rate !== undefined) change.sessionCreatesPerMinute = rate;
  return change;
}

export function quotaSummary(view: QuotaView): string {
  const mark = (overridden: boolean) => (overridden ? " (set for this organization)" : " (server default)");
  const rate = view.creates_per_minute.limit === 0 ? "no limit" : String(view.creates_per_minute.limit);
  return [
    `browser sessions at once ${view.browser_sessions.limit}${mark(view.browser_sessions.overridden)}`,
    `desktop sessions at once ${view.desktop_sessions.limit}${mark(view.desktop_sessions.overridden)}`,
    `creates per minute ${rate}${mark(view.creates_per_minute.overridden)}`,
  ].join("; ");
}
