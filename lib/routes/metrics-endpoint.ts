// GET /metrics: the token check and the scrape. Unset METRICS_TOKEN hides the
// endpoint (404, as if absent); set, a Bearer token equal to it is required.
// Gauges that mirror live state are set here from their owners, at scrape time.
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import { clusterHealth } from "@/lib/cluster/health";
import { getSessionManager } from "@/lib/computers/registry";
import { getEnv } from "@/lib/env";
import { getMetrics } from "@/lib/metrics/registry";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Throws the 404 or 401 unless the request may read the metrics. */
export function authorizeMetrics(authorization: string | null): void {
  const token = getEnv().METRICS_TOKEN;
  if (!token) throw new AppError("not_found", "Not found");
  const given = /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1]?.trim() ?? "";
  // Hashes make the comparison constant-time whatever the lengths.
  if (!given || !timingSafeEqual(digest(given), digest(token))) {
    throw new AppError("unauthorized", "A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)", {
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    });
  }
}

const numericFields = (value: object) =>
  Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === "number");

function updateLiveGauges(): void {
  const metrics = getMetrics();
  const manager = getSessionManager();
  metrics.sessions.reset();
  for (const kind of ["browser", "desktop"] as const) {
    for (const state of ["live", "ending"] as const) metrics.sessions.set({ kind, state }, 0);
  }
  for (const live of manager.sessionsView())
    metrics.sessions.inc({ kind: live.kind, state: live.ending ? "ending" : "live" });
  metrics.sessionStarts.set({ state: "queued" }, manager.admission.queued);
  metrics.sessionStarts.set({ state: "starting" }, manager.admission.starting);
  const browser = manager.driverFor("browser")?.health();
  if (browser)
    for (const [resource, n] of numericFields(browser))
      if (resource !== "standby_floor") metrics.browserPool.set({ resource }, n);
  const desktop = manager.driverFor("desktop")?.health();
  if (desktop) for (const [resource, n] of numericFields(desktop)) metrics.desktops.set({ resource }, n);
}

async function updateClusterGauges(): Promise<void> {
  const metrics = getMetrics();
  const view = await clusterHealth();
  metrics.clusterNodes.reset();
  metrics.clusterNodeLoad.reset();
  metrics.clusterLeaseSeconds.reset();
  for (const state of ["live", "dead", "reaped"] as const)
    metrics.clusterNodes.set({ state }, view.nodes.filter((n) => n.state === state).length);
  const now = Date.now();
  for (const n of view.nodes) {
    if (n.state === "live") metrics.clusterNodeLoad.set({ node: n.id }, n.load);
    metrics.clusterLeaseSeconds.set({ node: n.id }, Math.round((Date.parse(n.lease_until) - now) / 100) / 10);
  }
}

/** The Prometheus text exposition of this process's metrics. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  updateLiveGauges();
  await updateClusterGauges();
  const { registry } = getMetrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
