// bench:cluster, part one (bench/cluster.ts) — what forwarding costs: two nodes on one PostgreSQL
// (docs/cluster.md), a browser session on node A, and the same requests sent
// to A (served locally) and to B (forwarded to A), interleaved so both see the
// same machine load. Plain: GET /computers/{id}/status and an action
// (get_html_content); streamed: the time to the first byte of the /events SSE.
// Figures, not assertions. Both nodes share this machine's cores, so the added
// latency here includes B's CPU time; nodes on their own machines add about
// one loopback-or-LAN round trip plus the signing.
//   BENCH_CLUSTER_REQUESTS=200
import type { TestServer } from "../tests/api/harness";
import { pct, timedClient } from "./timing";

const REQUESTS = Number(process.env.BENCH_CLUSTER_REQUESTS ?? 200);

async function firstByteMs(url: string, key: string): Promise<number> {
  const controller = new AbortController();
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  if (res.status !== 200) throw new Error(`events: ${res.status}`);
  const reader = res.body!.getReader();
  await reader.read();
  const ms = performance.now() - started;
  controller.abort();
  await reader.cancel().catch(() => {});
  return ms;
}

const summaryMs = (values: number[]) => `p50 ${pct(values, 50).toFixed(1)} ms, p99 ${pct(values, 99).toFixed(1)} ms`;

/** Rows of [measure, result, added latency] for a session on `a` reached locally and through `b`. */
export async function forwardingRows(a: TestServer, b: TestServer, key: string): Promise<string[][]> {
  const onA = timedClient(a.url, key);
  const viaB = timedClient(b.url, key);
  const { body: session } = await onA("POST", "/computers", { kind: "browser" });
  const id = session.id as string;
  const plain = { local: [] as number[], forwarded: [] as number[] };
  const action = { local: [] as number[], forwarded: [] as number[] };
  const streamed = { local: [] as number[], forwarded: [] as number[] };
  for (let i = 0; i < 10; i++) await viaB("GET", `/computers/${id}/status`); // warm both paths
  for (let i = 0; i < REQUESTS; i++) {
    plain.local.push((await onA("GET", `/computers/${id}/status`)).ms);
    plain.forwarded.push((await viaB("GET", `/computers/${id}/status`)).ms);
    if (i % 2 === 0) {
      action.local.push((await onA("POST", `/computers/${id}/execute`, { action: { type: "get_html_content" } })).ms);
      action.forwarded.push(
        (await viaB("POST", `/computers/${id}/execute`, { action: { type: "get_html_content" } })).ms,
      );
    }
    if (i % 5 === 0) {
      streamed.local.push(await firstByteMs(`${a.url}/computers/${id}/events`, key));
      streamed.forwarded.push(await firstByteMs(`${b.url}/computers/${id}/events`, key));
    }
  }
  await onA("DELETE", `/computers/${id}`);
  const added = (x: { local: number[]; forwarded: number[] }, p: number) =>
    (pct(x.forwarded, p) - pct(x.local, p)).toFixed(1);
  return [
    ["status (plain), local on A", summaryMs(plain.local), "—"],
    [
      "status (plain), forwarded B → A",
      summaryMs(plain.forwarded),
      `added p50 ${added(plain, 50)} ms, p99 ${added(plain, 99)} ms`,
    ],
    ["action get_html_content, local", summaryMs(action.local), "—"],
    [
      "action get_html_content, forwarded",
      summaryMs(action.forwarded),
      `added p50 ${added(action, 50)} ms, p99 ${added(action, 99)} ms`,
    ],
    ["events SSE first byte, local", summaryMs(streamed.local), "—"],
    [
      "events SSE first byte, forwarded",
      summaryMs(streamed.forwarded),
      `added p50 ${added(streamed, 50)} ms, p99 ${added(streamed, 99)} ms`,
    ],
  ];
}
