// The load suite's and `npm run bench:load`'s traffic: a paced, open-loop client
// (requests start on a fixed schedule whatever the server's latency, and each is
// timed from when it was due, so a stall shows in full instead of slowing the
// sender down: no coordinated omission) sending mixed reads, actions and model calls
// to live browser sessions, then a burst of creates in the middle of that load.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { Agent, request } from "node:http";

export type RequestClass = "read" | "list" | "screenshot" | "mouse" | "key" | "model";

export interface LoadOptions {
  base: string;
  /** Keys of the organizations the sessions are spread over. */
  keys: string[];
  /** A loopback page the sessions show (something to screenshot and click). */
  pageUrl: string;
  sessions: number;
  ratePerSecond: number;
  steadySeconds: number;
  burstCreates: number;
  /** How long after the burst the load goes on (its p99 is the stall measure). */
  afterBurstSeconds: number;
  model: string;
  /** Weights of the request classes, out of 100 (default `DEFAULT_MIX`). */
  mix?: Mix;
  /** Progress lines (setting up sessions, load started, burst sent). */
  log?: (line: string) => void;
}

interface Sample {
  cls: RequestClass;
  /** When it was due, ms on the run's clock. */
  dueAt: number;
  ms: number;
  error?: string;
}

export interface LoadResult {
  samples: Sample[];
  burstAt: number;
  burstMs: number[];
  burstErrors: string[];
  loadAverage: number[];
  sessionIds: string[];
}

export type Mix = [RequestClass, number][];

// Weights of the mix, out of 100: reads dominate, as with agents polling state.
export const DEFAULT_MIX: Mix = [
  ["read", 35],
  ["list", 15],
  ["screenshot", 5],
  ["mouse", 20],
  ["key", 15],
  ["model", 10],
];

/** "read=60,list=15,…" (weights summing to 100) → a Mix. */
export function parseMix(text: string): Mix {
  const mix = text.split(",").map((part) => {
    const [cls, weight] = part.split("=");
    if (!DEFAULT_MIX.some(([known]) => known === cls) || !(Number(weight) >= 0))
      throw new Error(`bad mix entry '${part}'`);
    return [cls as RequestClass, Number(weight)] as [RequestClass, number];
  });
  if (mix.reduce((n, [, w]) => n + w, 0) !== 100) throw new Error(`mix weights must sum to 100: ${text}`);
  return mix;
}

function pick(mix: Mix, n: number): RequestClass {
  let acc = 0;
  for (const [cls, weight] of mix) if (n < (acc += weight)) return cls;
  return "read";
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function runMixedLoad(o: LoadOptions): Promise<LoadResult> {
  // Enough sockets that requests never queue in the client: queuing there would hide server latency.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${o.base}${path}`,
        {
          method,
          agent,
          headers: {
            authorization: `Bearer ${key}`,
            ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`);
    const json = text ? JSON.parse(text) : null;
    if (json && typeof json === "object" && json.status === "error")
      throw new Error(`${method} ${path}: ${text.slice(0, 200)}`);
    return json;
  };

  const sessions: { id: string; key: string }[] = [];
  for (let i = 0; i < o.sessions; i++) {
    const key = o.keys[i % o.keys.length];
    // Setting up 50 sessions can take minutes on a loaded machine: the first must not idle out meanwhile.
    const s = await call("POST", "/computers", key, { inactivity_timeout_seconds: 3600 });
    await call("POST", `/computers/${s.id}/execute`, key, {
      action: { type: "go_to_url", url: `${o.pageUrl}?n=${i}` },
    });
    sessions.push({ id: s.id, key });
    if ((i + 1) % 10 === 0) o.log?.(`${i + 1}/${o.sessions} sessions live`);
  }
  o.log?.(`load: ${o.ratePerSecond} req/s for ${o.steadySeconds} s, then ${o.burstCreates} creates`);

  const send = (cls: RequestClass, i: number): Promise<unknown> => {
    const s = sessions[i % sessions.length];
    const act = (action: Record<string, unknown>) => call("POST", `/computers/${s.id}/execute`, s.key, { action });
    switch (cls) {
      case "read":
        return call("GET", `/computers/${s.id}`, s.key);
      case "list":
        return call("GET", "/computers", s.key);
      case "screenshot":
        return act({ type: "screenshot", format: "jpeg", quality: 50 });
      case "mouse":
        return act({ type: "click", x: 20 + (i % 600), y: 300 + (i % 300) });
      case "key":
        return act({ type: "keypress", keys: ["ArrowDown"] });
      case "model":
        return call("POST", "/v1/chat/completions", s.key, {
          model: o.model,
          max_tokens: 4,
          temperature: 0,
          messages: [{ role: "user", content: `ping ${i}` }],
        });
    }
  };

  const samples: Sample[] = [];
  const inflight = new Set<Promise<void>>();
  const t0 = performance.now();
  const intervalMs = 1000 / o.ratePerSecond;
  const totalMs = (o.steadySeconds + o.afterBurstSeconds) * 1000;
  const burstAt = o.steadySeconds * 1000;
  let sent = 0;
  let burst: Promise<{ ms: number[]; errors: string[] }> | null = null;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now() - t0;
      if (!burst && now >= burstAt) burst = createBurst();
      // Every request whose time has come, each timed from its due time.
      for (; sent * intervalMs <= Math.min(now, totalMs); sent++) {
        const dueAt = sent * intervalMs;
        const cls = pick(o.mix ?? DEFAULT_MIX, (sent * 37) % 100);
        const run = send(cls, sent)
          .then(
            () => void samples.push({ cls, dueAt, ms: performance.now() - t0 - dueAt }),
            (err: Error) => void samples.push({ cls, dueAt, ms: performance.now() - t0 - dueAt, error: err.message }),
          )
          .finally(() => inflight.delete(run));
        inflight.add(run);
      }
      if (now >= totalMs) clearInterval(tick), resolve();
    }, 2);
  });

  async function createBurst() {
    const ms: number[] = [];
    const errors: string[] = [];
    await Promise.all(
      Array.from({ length: o.burstCreates }, async (_, i) => {
        const started = performance.now();
        try {
          const s = await call("POST", "/computers", o.keys[i % o.keys.length], {});
          sessions.push({ id: s.id, key: o.keys[i % o.keys.length] });
        } catch (err) {
          errors.push((err as Error).message);
        }
        ms.push(performance.now() - started);
      }),
    );
    return { ms, errors };
  }

  await Promise.all(inflight);
  const done = await (burst ?? createBurst());
  const loadAverage = os.loadavg();
  await Promise.all(sessions.map((s) => call("DELETE", `/computers/${s.id}`, s.key).catch(() => {})));
  agent.destroy();
  return {
    samples,
    burstAt,
    burstMs: done.ms,
    burstErrors: done.errors,
    loadAverage,
    sessionIds: sessions.map((s) => s.id),
  };
}

/**
 * Rows of [class, requests, errors, p50, p99] for the steady phase, the 10 s after the burst, and each class overall.
 */
export function summarize(r: LoadResult, mix: Mix = DEFAULT_MIX, afterBurstMs = 10_000): string[][] {
  const fmt = (v: number) => (Number.isNaN(v) ? "-" : `${v.toFixed(1)} ms`);
  const row = (name: string, set: Sample[]) => {
    const ms = set.filter((s) => !s.error).map((s) => s.ms);
    return [
      name,
      String(set.length),
      String(set.filter((s) => s.error).length),
      fmt(percentile(ms, 50)),
      fmt(percentile(ms, 99)),
    ];
  };
  const steady = r.samples.filter((s) => s.dueAt < r.burstAt);
  const after = r.samples.filter((s) => s.dueAt >= r.burstAt && s.dueAt < r.burstAt + afterBurstMs);
  return [
    ...mix.map(([cls]) =>
      row(
        `steady: ${cls}`,
        steady.filter((s) => s.cls === cls),
      ),
    ),
    row("steady: all", steady),
    row(`first ${afterBurstMs / 1000} s after the burst: all`, after),
    ...mix.map(([cls]) =>
      row(
        `after burst: ${cls}`,
        after.filter((s) => s.cls === cls),
      ),
    ),
    [
      `burst: ${r.burstMs.length} creates at once`,
      String(r.burstMs.length),
      String(r.burstErrors.length),
      fmt(percentile(r.burstMs, 50)),
      fmt(Math.max(...r.burstMs)),
    ],
  ];
}

export const SUMMARY_HEADER = ["class", "requests", "errors", "p50", "p99 (burst: slowest)"];
