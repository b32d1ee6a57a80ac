// Shared by the bench:cluster parts: a live-traffic loop over existing sessions, and
// concurrent creates, both through the HTTP API of a running node.
import { pct } from "./timing";

export type Client = (
  method: string,
  p: string,
  body?: unknown,
) => Promise<{ ms: number; body: Record<string, unknown> & { id?: string } }>;

/** The action live traffic repeats: a screenshot, what a computer-use loop asks for every step. */
export const LIVE_ACTION = { action: { type: "screenshot" } };

export const summary = (values: number[]) =>
  values.length
    ? `p50 ${pct(values, 50).toFixed(0)} ms, p99 ${pct(values, 99).toFixed(0)} ms (n=${values.length})`
    : "—";

export const ratio = (value: number, floor: number) => `${(value / floor).toFixed(2)}× floor`;

/**
 * One sequential action loop per session (each its own client: a node or the node it is
 * reached through) until `until` resolves; resolves with every action's latency.
 */
export async function liveLoops(
  targets: { client: Client; id: string }[],
  until: Promise<unknown>,
): Promise<{ latencies: number[]; seconds: number }> {
  let stop = false;
  void until.finally(() => (stop = true));
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    targets.map(async ({ client, id }) => {
      while (!stop) latencies.push((await client("POST", `/computers/${id}/execute`, LIVE_ACTION)).ms);
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

export const elapsed = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` browser creates at once, spread round-robin over `clients`; the sessions and the wall time. */
export async function createBurst(clients: Client[], count: number): Promise<{ ids: string[]; seconds: number }> {
  const started = performance.now();
  const made = await Promise.all(
    Array.from({ length: count }, (_, i) => clients[i % clients.length]!("POST", "/computers", { kind: "browser" })),
  );
  return { ids: made.map((m) => m.body.id as string), seconds: (performance.now() - started) / 1000 };
}

export async function deleteAll(client: Client, ids: string[]) {
  await Promise.all(ids.map((id) => client("DELETE", `/computers/${id}`)));
}
