// What /api/health reports: each part's check, and an overall status that is
// "ok" only when every required check passes.
import { clusterHealth } from "@/lib/cluster/health";
import { chromiumHelp } from "@/lib/computers/host-capabilities";
import { computersHealth } from "@/lib/computers/health";
import { getDb } from "@/lib/db";
import { modelsHealth } from "@/lib/models/registry";
import { usageHealth } from "@/lib/models/usage";

export interface CheckResult {
  ok: boolean;
  /** A failing optional check degrades but does not fail health. */
  required?: boolean;
  message?: string;
  [detail: string]: unknown;
}

async function checkDatabase(): Promise<CheckResult> {
  const started = performance.now();
  try {
    await getDb().$queryRawUnsafe("SELECT 1");
    return { ok: true, required: true, latency_ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    return { ok: false, required: true, message: `database unreachable: ${(err as Error).message}` };
  }
}

/** The browser driver's own verdict (Chromium found and launching, and with which sandbox), summarised. */
function checkBrowser(sessions: ReturnType<typeof computersHealth>): CheckResult {
  const browser = sessions.browser as typeof sessions.browser & {
    chromium?: { path: string; source: string } | null;
    sandbox?: string | null;
    sandbox_fallback?: string;
  };
  const { chromium } = browser;
  const sandbox = {
    sandbox: browser.sandbox ?? null,
    ...(browser.sandbox_fallback ? { sandbox_fallback: browser.sandbox_fallback } : {}),
  };
  return browser.ok && chromium
    ? { ok: true, required: true, path: chromium.path, source: chromium.source, ...sandbox }
    : { ok: false, required: true, message: browser.message ?? chromiumHelp() };
}

export async function healthReport() {
  const sessions = computersHealth();
  const checks: Record<string, CheckResult> = {
    database: await checkDatabase(),
    browser: checkBrowser(sessions),
    sessions,
    // Usage rows held in memory or given up: dropped rows do not fail health, they are counted.
    models: { ...modelsHealth(), usage: usageHealth() },
    // This node and every node's lease and load (docs/cluster.md).
    cluster: await clusterHealth(),
  };
  const healthy = Object.values(checks).every((c) => c.ok || c.required === false);
  return { healthy, body: { status: healthy ? "ok" : "error", checks } };
}
