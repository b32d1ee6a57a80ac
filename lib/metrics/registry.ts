// The process's Prometheus metrics (prom-client), one set per process through
// `singleton`: Next loads lib/ from several bundles, and a second registry would
// split the counts. Recorders here are what the hooks call (action timing in
// the action service, usage in recordUsage); gauges read at scrape time are set
// by `renderMetrics`. Imports nothing of lib/computers or lib/models, so any of
// them can record without an import cycle.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { singleton, singletonKey } from "@/lib/singleton";

function createMetrics() {
  const registry = new Registry();
  // process_resident_memory_bytes, nodejs_eventloop_lag_seconds, heap and GC figures.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    actionDuration: new Histogram({
      name: "cabin_action_duration_seconds",
      help:
        "Time to run one computer action, by action type and outcome (success, error: status error, failed: an " +
        "error answer)",
      labelNames: ["type", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    modelRequests: new Counter({
      name: "cabin_model_requests_total",
      help: "Model API requests that recorded usage, by model, endpoint and HTTP status",
      labelNames: ["model", "endpoint", "status"] as const,
      registers,
    }),
    modelTokens: new Counter({
      name: "cabin_model_tokens_total",
      help: "Tokens of model API requests, by model and direction (input, output)",
      labelNames: ["model", "direction"] as const,
      registers,
    }),
    modelDuration: new Histogram({
      name: "cabin_model_request_duration_seconds",
      help: "Model API request latency (to the end of the answer), by model and HTTP status",
      labelNames: ["model", "status"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    sessions: new Gauge({
      name: "cabin_sessions",
      help: "Sessions held by this process, by kind and state (live, ending: terminated, tear-down running)",
      labelNames: ["kind", "state"] as const,
      registers,
    }),
    sessionsEnded: new Counter({
      name: "cabin_sessions_ended_total",
      help: "Sessions this process ended, by kind and termination reason",
      labelNames: ["kind", "reason"] as const,
      registers,
    }),
    browserPool: new Gauge({
      name: "cabin_browser_pool",
      help: "Browser pool sizes: browsers, contexts, session_contexts, standby_contexts, pages, chromium_processes",
      labelNames: ["resource"] as const,
      registers,
    }),
    clusterNodes: new Gauge({
      name: "cabin_cluster_nodes",
      help: "Nodes in the nodes table by lease state (live, dead: lapsed and not yet reaped, reaped)",
      labelNames: ["state"] as const,
      registers,
    }),
    clusterNodeLoad: new Gauge({
      name: "cabin_cluster_node_load",
      help: "Live sessions of each live node, as its last lease renewal reported",
      labelNames: ["node"] as const,
      registers,
    }),
    clusterLeaseSeconds: new Gauge({
      name: "cabin_cluster_node_lease_remaining_seconds",
      help: "Seconds until each node's lease lapses (negative: lapsed)",
      labelNames: ["node"] as const,
      registers,
    }),
    sessionStarts: new Gauge({
      name: "cabin_session_start_queue",
      help: "Session starts on this node: queued (creates waiting for a start slot) and starting (running now)",
      labelNames: ["state"] as const,
      registers,
    }),
    desktops: new Gauge({
      name: "cabin_desktops",
      help: "Desktop sizes: live_desktops, desktop_processes, session_dirs",
      labelNames: ["resource"] as const,
      registers,
    }),
  };
}

export type CabinMetrics = ReturnType<typeof createMetrics>;

const metricsKey = singletonKey<CabinMetrics>("metrics");

export const getMetrics = (): CabinMetrics => singleton(metricsKey, createMetrics);

/** One action's time; `status` is the ActionResult's, or "failed" when it answered an error. */
export function observeAction(type: string, status: "success" | "error" | "failed", seconds: number): void {
  getMetrics().actionDuration.observe({ type, status }, seconds);
}

/** One session's end (the "usage" stage of the session-end event). */
export function countSessionEnded(kind: string, reason: string): void {
  getMetrics().sessionsEnded.inc({ kind, reason });
}

/** One model request, as recordUsage sees it. */
export function observeModelRequest(entry: {
  model: string;
  endpoint: string;
  status: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}): void {
  const metrics = getMetrics();
  const status = String(entry.status);
  metrics.modelRequests.inc({ model: entry.model, endpoint: entry.endpoint, status });
  metrics.modelTokens.inc({ model: entry.model, direction: "input" }, entry.inputTokens);
  metrics.modelTokens.inc({ model: entry.model, direction: "output" }, entry.outputTokens);
  metrics.modelDuration.observe({ model: entry.model, status }, entry.latencyMs / 1000);
}

/** Times `run` as one action; an ActionResult-like answer gives the status. */
export async function timeAction<T>(type: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    const status = (result as { status?: unknown } | null)?.status === "error" ? "error" : "success";
    observeAction(type, status, (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    observeAction(type, "failed", (performance.now() - started) / 1000);
    throw err;
  }
}
