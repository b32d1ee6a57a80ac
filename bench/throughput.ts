// The throughput row of bench:models: closed-loop load at growing concurrency
// (autocannon-style: each of `c` workers sends its next request when the last
// answered), over keep-alive node:http connections. Each step loads the upstream
// directly, then through Cabin, for STEP_MS each; the added p50/p99 is Cabin's
// percentile minus the direct one at the same concurrency. The chosen row is the
// highest requests/s through Cabin whose added p99 stays within the target.
import http from "node:http";

const STEP_MS = Number(process.env.BENCH_STEP_MS ?? 3000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "1,2,4,8,16,32").split(",").map(Number);
export const ADDED_P99_TARGET_MS = 5;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function post(agent: http.Agent, url: URL, headers: Record<string, string>, payload: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: "POST", agent, headers }, (res) => {
      res.on("data", () => {});
      res.once("end", () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`)),
      );
    });
    req.once("error", reject);
    req.end(payload);
  });
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function load(target: string, key: string | undefined, model: string, concurrency: number): Promise<Load> {
  const url = new URL(target);
  const payload = Buffer.from(JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 8 }));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "content-length": String(payload.length),
  };
  if (key) headers.authorization = `Bearer ${key}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + STEP_MS;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        times.push(await post(agent, url, headers, payload));
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - started;
  agent.destroy();
  times.sort((a, b) => a - b);
  return { rps: times.length / (elapsed / 1000), p50: pct(times, 0.5), p99: pct(times, 0.99), errors };
}

export interface ThroughputStep {
  concurrency: number;
  direct: Load;
  gateway: Load;
  addedP50: number;
  addedP99: number;
}

/** Steps the offered load; returns every step and the chosen one (null: none met the target). */
export async function throughput(
  direct: string,
  gateway: string,
  key: string,
): Promise<{ steps: ThroughputStep[]; chosen: ThroughputStep | null }> {
  // Warm both paths' connections and code first.
  await load(direct, undefined, "up", 2);
  await load(gateway, key, "bench.up", 2);
  const steps: ThroughputStep[] = [];
  for (const concurrency of CONCURRENCY) {
    const d = await load(direct, undefined, "up", concurrency);
    const g = await load(gateway, key, "bench.up", concurrency);
    steps.push({ concurrency, direct: d, gateway: g, addedP50: g.p50 - d.p50, addedP99: g.p99 - d.p99 });
  }
  const within = steps.filter((s) => s.addedP99 <= ADDED_P99_TARGET_MS && s.gateway.errors === 0);
  const chosen = within.reduce<ThroughputStep | null>(
    (best, s) => (!best || s.gateway.rps > best.gateway.rps ? s : best),
    null,
  );
  return { steps, chosen };
}

const f = (ms: number) => `${ms.toFixed(2)} ms`;

/** One table row per step, the chosen one marked. */
export function throughputRows({ steps, chosen }: { steps: ThroughputStep[]; chosen: ThroughputStep | null }) {
  return steps.map((s) => ({
    concurrency: s.concurrency,
    "direct rps": s.direct.rps.toFixed(0),
    "via Cabin rps": s.gateway.rps.toFixed(0),
    "via Cabin p50": f(s.gateway.p50),
    "via Cabin p99": f(s.gateway.p99),
    "added p50": f(s.addedP50),
    "added p99": f(s.addedP99),
    errors: s.gateway.errors,
    chosen: s === chosen ? `◀ ${s.gateway.rps.toFixed(0)} req/s at added p99 ≤ ${ADDED_P99_TARGET_MS} ms` : "",
  }));
}
