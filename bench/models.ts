// npm run bench:models — what the model gateway costs, printed as a table:
//  1. added latency of Cabin's openai-compatible backend over calling the
//     upstream directly (a tiny OpenAI-wire server started here), non-streamed
//     and time to the first content chunk streamed, p50/p99; beside it the same
//     figure for a minimal Node proxy (bench/child-server.ts), this machine's floor;
//  2. throughput: the highest requests/s through Cabin with an added p99 of at
//     most 5 ms, from closed-loop load at growing concurrency (bench/throughput.ts);
//  3. local tokens/s through Cabin's HTTP API vs raw node-llama-cpp on the same
//     generated model with the same settings.
// BENCH_BASELINE=<dir>: another checkout of Cabin, installed and built (say, the
// commit a target was set on); its server joins the rotation of row 1, so
// "faster or slower than that build" is measured in the same minutes on the same
// machine instead of against a figure from another day.
// Needs a production build (npm run build). Figures only, no assertions.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getLlama, LlamaCompletion, LlamaLogLevel } from "node-llama-cpp";
import { ensureEmbeddedModel } from "@/lib/models/local/embedded-model";
import { createOrgKey, startServer, type TestServer } from "../tests/api/harness";
import { REFERENCE_PROXY_SOURCE, spawnHttpChild } from "./child-server";
import { chatBody as body, startUpstream, timeRequest } from "./instant-upstream";
import { probeEnv, probeRow, readProbe } from "./probe";
import { ADDED_P99_TARGET_MS, throughput, throughputRows } from "./throughput";

// A p99 of 400 samples is their 5th-worst value, which one stall of a shared VM decides; 2,000 put
// 20 samples above it, so the p99 rows say more about Cabin than about the moment (BENCH_ROUNDS overrides).
const LATENCY_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);
const WARMUP = 200;
const GEN_TOKENS = 1024;
/** BENCH_GEN_RUNS=0 skips the local-generation row (while iterating on the gateway). */
const GEN_RUNS = Number(process.env.BENCH_GEN_RUNS ?? 7);
const PROMPT = "Once upon a time, the water of the sea was good";
const BASELINE_DIR = process.env.BENCH_BASELINE;

type Gateway = { url: string; key: string | undefined };

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`;

type Latency = Awaited<ReturnType<typeof latency>>[number];

/** Another hop's non-streamed rows (`other`), timed like Cabin's first row (`cabin`), beside Cabin's added figure. */
function besideCabin(via: string, cabin: Latency, other: Latency) {
  return (["p50", "p99"] as const).map((q) => ({
    what: `non-streamed, ${q}`,
    direct: fmt(other[q][0]!),
    [via]: fmt(other[q][1]!),
    added: fmt(other[q][1]! - other[q][0]!),
    "Cabin's added minus this": fmt(cabin[q][1]! - cabin[q][0]! - (other[q][1]! - other[q][0]!)),
  }));
}

/**
 * p50/p99 of each gateway against the upstream called directly: every request through a gateway follows one
 * to the upstream (interleaved, so drift on a shared machine hits both sides alike), and with several
 * gateways their order alternates each round, so none always goes first.
 */
async function latency(direct: string, gateways: Gateway[], stream: boolean) {
  const d: number[][] = gateways.map(() => []);
  const g: number[][] = gateways.map(() => []);
  for (let i = 0; i < WARMUP + LATENCY_ROUNDS; i++) {
    const order = gateways.map((_, j) => j);
    if (i % 2) order.reverse();
    for (const j of order) {
      const a = await timeRequest(direct, undefined, body(stream, "up"), stream);
      const b = await timeRequest(gateways[j]!.url, gateways[j]!.key, body(stream, "bench.up"), stream);
      if (i >= WARMUP) {
        d[j]!.push(a);
        g[j]!.push(b);
      }
    }
  }
  return gateways.map((_, j) => {
    d[j]!.sort((x, y) => x - y);
    g[j]!.sort((x, y) => x - y);
    return { p50: [pct(d[j]!, 0.5), pct(g[j]!, 0.5)], p99: [pct(d[j]!, 0.99), pct(g[j]!, 0.99)] };
  });
}

/** Median tokens/s of GEN_RUNS runs each way, interleaved so machine load hits both alike. */
async function tokensPerSecond(url: string, key: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cabin-bench-"));
  const file = await ensureEmbeddedModel(dir);
  const llama = await getLlama({ gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: file });
  const context = await model.createContext({ contextSize: 2048, threads: 1, sequences: 1 });
  const raw = async () => {
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    let tokens = 0;
    const started = performance.now();
    await completion.generateCompletion(PROMPT, {
      maxTokens: GEN_TOKENS,
      temperature: 0,
      onToken: (t) => (tokens += t.length),
    });
    const rate = tokens / ((performance.now() - started) / 1000);
    completion.dispose({ disposeSequence: true });
    return rate;
  };
  const viaCabin = async () => {
    const started = performance.now();
    const res = await fetch(`${url}/v1/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: "svc.sm-1", prompt: PROMPT, max_tokens: GEN_TOKENS, temperature: 0 }),
    });
    const json = (await res.json()) as { usage: { completion_tokens: number } };
    return json.usage.completion_tokens / ((performance.now() - started) / 1000);
  };
  const r: number[] = [];
  const c: number[] = [];
  await raw();
  await viaCabin();
  for (let i = 0; i < GEN_RUNS; i++) {
    r.push(await raw());
    c.push(await viaCabin());
  }
  await llama.dispose();
  rmSync(dir, { recursive: true, force: true });
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { raw: median(r), viaCabin: median(c) };
}

// ---- run ----
const upstream = await startUpstream();
const upstreamUrl = upstream.url;
const reference = await spawnHttpChild(REFERENCE_PROXY_SOURCE, {
  UPSTREAM_CHAT_URL: `${upstreamUrl}/chat/completions`,
});

const gatewayEnv = {
  LOG_LEVEL: "error",
  MODEL_RATE_LIMIT_RPM: "0",
  MODEL_RATE_LIMIT_TPM: "0",
  MODELS: JSON.stringify({
    "bench.up": { backend: "openai-compatible", url: upstreamUrl },
    "svc.sm-1": { backend: "local" },
  }),
};

/** Lets start-up work finish first (the local model loads in the background), so it does not land in the figures. */
async function settle(server: TestServer, key: string) {
  await fetch(`${server.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: "svc.sm-1", prompt: "warm", max_tokens: 1 }),
  });
}

/** The BENCH_BASELINE checkout's server, started by that checkout's own test harness, with the same models. */
async function startBaseline(dir: string) {
  const harness = (await import(
    pathToFileURL(path.resolve(dir, "tests/api/harness.ts")).href
  )) as typeof import("../tests/api/harness");
  const server = await harness.startServer({
    dataDir: mkdtempSync(path.join(os.tmpdir(), "cabin-bench-baseline-")),
    env: gatewayEnv,
  });
  const key = await harness.createOrgKey(server, "Bench");
  await settle(server, key);
  const commit = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"]).toString().trim();
  return { server, commit, gateway: { url: `${server.url}/v1/chat/completions`, key } };
}

console.log("starting a Cabin server (production build)…");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "cabin-bench-models-"));
const cabin = await startServer({ dataDir, env: { ...probeEnv(dataDir), ...gatewayEnv } });
let baseline: Awaited<ReturnType<typeof startBaseline>> | undefined;
try {
  const key = await createOrgKey(cabin, "Bench");
  await settle(cabin, key);
  if (BASELINE_DIR) {
    console.log(`starting the baseline's server (${BASELINE_DIR})…`);
    baseline = await startBaseline(BASELINE_DIR);
  }
  console.log(`machine: ${os.cpus().length} cores, ${loadAverage()} (other work skews these figures)`);
  console.log(`latency: ${LATENCY_ROUNDS} interleaved requests per mode after ${WARMUP} warm-up…`);
  const probe = (phase: string) => readProbe(cabin.process, dataDir).then((w) => probeRow(phase, w));
  await probe("start");
  const direct = `${upstreamUrl}/chat/completions`;
  const throughCabin: Gateway = { url: `${cabin.url}/v1/chat/completions`, key };
  const [plain, plainBaseline] = await latency(
    direct,
    baseline ? [throughCabin, baseline.gateway] : [throughCabin],
    false,
  );
  // Stopped at once: the rows after this one time Cabin alone.
  const baselineCommit = baseline?.commit;
  await baseline?.server.destroy();
  baseline = undefined;
  const plainProbe = await probe("latency, non-streamed");
  const [streamed] = await latency(direct, [throughCabin], true);
  const streamedProbe = await probe("latency, streamed");
  // The same interleaving through the reference hop (bench/child-server.ts): this machine's floor for the first row.
  const [floor] = await latency(
    direct,
    [{ url: `http://127.0.0.1:${reference.port}/v1/chat/completions`, key: undefined }],
    false,
  );
  const latencyLoad = loadAverage();
  console.log(`throughput: closed-loop load at growing concurrency, upstream directly then via Cabin, per step…`);
  const steps = await throughput(direct, throughCabin.url, key);
  const throughputProbe = await probe("throughput, all steps");
  const throughputLoad = loadAverage();
  console.log(`tokens/s: ${GEN_RUNS} interleaved runs of ${GEN_TOKENS} tokens each way (median)…`);
  const { raw, viaCabin } = GEN_RUNS > 0 ? await tokensPerSecond(cabin.url, key) : { raw: NaN, viaCabin: NaN };
  // Next's router marks its responses with `vary: rsc, …`; the custom server's /v1 fast path does not.
  const listing = await fetch(`${cabin.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  const route = listing.headers.get("vary")?.includes("rsc")
    ? "Next router (the app/v1 catch-all route)"
    : "custom server fast path";

  const rows = [
    ["non-streamed, p50", fmt(plain.p50[0]!), fmt(plain.p50[1]!), fmt(plain.p50[1]! - plain.p50[0]!), "≤ 1 ms"],
    ["non-streamed, p99", fmt(plain.p99[0]!), fmt(plain.p99[1]!), fmt(plain.p99[1]! - plain.p99[0]!), "≤ 3 ms"],
    [
      "streamed first chunk, p50",
      fmt(streamed.p50[0]!),
      fmt(streamed.p50[1]!),
      fmt(streamed.p50[1]! - streamed.p50[0]!),
      "≤ 3 ms",
    ],
    [
      "streamed first chunk, p99",
      fmt(streamed.p99[0]!),
      fmt(streamed.p99[1]!),
      fmt(streamed.p99[1]! - streamed.p99[0]!),
      "",
    ],
  ];
  console.log(
    `\nGateway latency (openai-compatible backend vs the upstream directly), /v1 served by: ${route}; ${latencyLoad} ` +
      `at its end`,
  );
  console.table(
    rows.map(([what, direct, gateway, added, target]) => ({ what, direct, "via Cabin": gateway, added, target })),
  );
  console.log(
    `\nThe floor: the same interleaved requests through a minimal Node proxy (no auth, limits or metering; ` +
      `bench/child-server.ts)`,
  );
  console.table(besideCabin("via the minimal proxy", plain, floor));
  if (plainBaseline) {
    console.log(
      `\nThe baseline (BENCH_BASELINE, commit ${baselineCommit}), timed in the same rotation as Cabin's first row`,
    );
    console.table(besideCabin("via the baseline", plain, plainBaseline));
  }
  console.log(`\nWhat the server's event loop saw meanwhile (bench/server-probe.mjs; the warm-up rounds included)`);
  console.table([plainProbe, streamedProbe, throughputProbe]);
  console.log(`\nThroughput, non-streamed, closed-loop load stepped by concurrency; ${throughputLoad} at its end`);
  console.table(throughputRows(steps));
  console.log(
    steps.chosen
      ? `throughput: ${steps.chosen.gateway.rps.toFixed(0)} requests/s via Cabin at concurrency ` +
          `${steps.chosen.concurrency} with added p99 ${fmt(steps.chosen.addedP99)} (≤ ${ADDED_P99_TARGET_MS} ms)`
      : `throughput: no step kept the added p99 within ${ADDED_P99_TARGET_MS} ms`,
  );
  console.log(`\nLocal generation, ${GEN_TOKENS} tokens, temperature 0, threads 1, generated placeholder model`);
  console.table([
    {
      "raw node-llama-cpp": `${raw.toFixed(0)} tok/s`,
      "via Cabin /v1/completions": `${viaCabin.toFixed(0)} tok/s`,
      ratio: (viaCabin / raw).toFixed(2),
      target: "≥ 0.9",
    },
  ]);
} finally {
  await baseline?.server.destroy();
  await cabin.destroy();
  upstream.child.kill();
  reference.child.kill();
}
