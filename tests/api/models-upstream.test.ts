// @needs server light
// The openai-compatible backend, against a second Cabin: a server of its own
// whose MODELS points ids at the shared server's /v1. Streams pass through
// chunk by chunk; usage is recorded on both servers; upstream failures map to
// the envelope (502/504), and a silent upstream is cut off at its timeout.
import { createServer, type Server } from "node:http";
import type OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createOrgKey, freePort, startServer, type TestServer } from "./harness";
import { closeDbs, db, MODEL, openai, postV1, usageRow } from "./models-helpers";

let gateway: TestServer;
let silent: Server;
let counted: Server;
let countedConnections = 0;
let gatewayKey: string;

const messages = [{ role: "user" as const, content: "What is the weather at sea?" }];

beforeAll(async () => {
  // An upstream that accepts connections and never answers.
  const silentPort = await freePort();
  silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(silentPort, "127.0.0.1", r));
  // A minimal OpenAI-wire upstream that counts the TCP connections it is given.
  const countedPort = await freePort();
  counted = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
      if (!JSON.parse(raw).stream) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            choices: [{ index: 0, message: { role: "assistant", content: "hi there" }, finish_reason: "stop" }],
            usage,
          }),
        );
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
      res.end(
        frame({ choices: [{ index: 0, delta: { content: "hi" }, finish_reason: null }] }) +
          frame({ choices: [{ index: 0, delta: { content: " there" }, finish_reason: "stop" }] }) +
          frame({ choices: [], usage }) +
          "data: [DONE]\n\n",
      );
    });
  });
  counted.on("connection", () => countedConnections++);
  await new Promise<void>((r) => counted.listen(countedPort, "127.0.0.1", r));
  const deadPort = await freePort();
  const upstream = `${inject("baseUrl")}/v1`;
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        "up.sm-1": {
          backend: "openai-compatible",
          url: upstream,
          apiKey: inject("apiKey"),
          upstreamModel: MODEL,
          prices: { input: 2, output: 4 },
        },
        "up.bad-key": { backend: "openai-compatible", url: upstream, apiKey: "cbn_wrong", upstreamModel: MODEL },
        "up.unknown-model": {
          backend: "openai-compatible",
          url: upstream,
          apiKey: inject("apiKey"),
          upstreamModel: "svc.nope",
        },
        "up.dead": { backend: "openai-compatible", url: `http://127.0.0.1:${deadPort}/v1` },
        "up.silent": { backend: "openai-compatible", url: `http://127.0.0.1:${silentPort}/v1`, timeoutMs: 500 },
        "up.counted": { backend: "openai-compatible", url: `http://127.0.0.1:${countedPort}/v1` },
        "local.missing": { backend: "local", path: "/nonexistent/model.gguf" },
      }),
    },
  });
  gatewayKey = await createOrgKey(gateway, "Gateway Org");
});

afterAll(async () => {
  await closeDbs();
  await gateway?.destroy();
  for (const server of [silent, counted]) {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  }
});

describe("openai-compatible upstream backend", () => {
  it("lists the configured ids, owned by the upstream host", async () => {
    const page = await openai(gateway.url, gatewayKey).models.list();
    expect(page.data.map((m) => m.id)).toEqual([
      "up.sm-1",
      "up.bad-key",
      "up.unknown-model",
      "up.dead",
      "up.silent",
      "up.counted",
      "local.missing",
    ]);
    expect(page.data[0]!.owned_by).toBe(new URL(inject("baseUrl")).host);
  });

  it("answers what the upstream answers, and both servers record the usage", async () => {
    const directRes = await postV1("/chat/completions", { model: MODEL, messages, temperature: 0, max_tokens: 11 });
    const direct = (await directRes.json()) as OpenAI.ChatCompletion;
    // Usage rows are written in batches: count once the direct call's own row is in.
    await usageRow(directRes.headers.get("x-request-id")!);
    const before = await db().usageRecord.count({ where: { model: MODEL, endpoint: "chat.completions" } });

    const res = await postV1(
      "/chat/completions",
      { model: "up.sm-1", messages, temperature: 0, max_tokens: 11 },
      { base: gateway.url, key: gatewayKey },
    );
    expect(res.status).toBe(200);
    const viaGateway = await res.json();
    expect(viaGateway).toMatchObject({
      object: "chat.completion",
      model: "up.sm-1",
      choices: [{ message: { content: direct.choices[0]!.message.content }, finish_reason: "length" }],
    });
    expect(viaGateway.usage).toEqual(direct.usage);

    const row = await usageRow(res.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row).toMatchObject({
      model: "up.sm-1",
      inputTokens: direct.usage!.prompt_tokens,
      outputTokens: 11,
      status: 200,
    });
    expect(row.costUsd).toBeCloseTo((direct.usage!.prompt_tokens * 2 + 11 * 4) / 1e6, 12);
    // The upstream (the shared server) metered the forwarded request for the key's organization.
    await expect
      .poll(() => db().usageRecord.count({ where: { model: MODEL, endpoint: "chat.completions" } }))
      .toBe(before + 1);
  });

  it("passes a stream through chunk by chunk, with the upstream's usage", async () => {
    const args = {
      model: MODEL,
      messages,
      temperature: 0,
      max_tokens: 20,
      stream: true as const,
      stream_options: { include_usage: true },
    };
    const upstreamChunks: ChatCompletionChunk[] = [];
    for await (const c of await openai().chat.completions.create(args)) upstreamChunks.push(c);
    const gatewayChunks: ChatCompletionChunk[] = [];
    for await (const c of await openai(gateway.url, gatewayKey).chat.completions.create({ ...args, model: "up.sm-1" }))
      gatewayChunks.push(c);

    const deltas = (chunks: ChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.delta.content).filter(Boolean);
    expect(deltas(gatewayChunks)).toEqual(deltas(upstreamChunks));
    expect(deltas(gatewayChunks).length).toBeGreaterThan(5);
    expect(gatewayChunks.at(-1)!.usage).toEqual(upstreamChunks.at(-1)!.usage);
    expect(gatewayChunks.every((c) => c.model === "up.sm-1")).toBe(true);
  });

  // Also: a local model that cannot load degrades health without failing it.
  it("reports each model in /api/health", async () => {
    const chat = await postV1(
      "/chat/completions",
      { model: "local.missing", messages },
      { base: gateway.url, key: gatewayKey },
    );
    expect(chat.status).toBe(500);
    expect((await chat.json()).error.code).toBe("model_load_failed");
    const res = await fetch(`${gateway.url}/api/health`);
    expect(res.status).toBe(200);
    const { status, checks } = await res.json();
    expect(status).toBe("ok");
    expect(checks.models.ok).toBe(false);
    expect(checks.models.models["local.missing"]).toMatchObject({
      ok: false,
      backend: "local",
      state: "failed",
      error: expect.stringContaining("model.gguf"),
    });
    expect(checks.models.models["up.sm-1"]).toMatchObject({
      ok: true,
      backend: "openai-compatible",
      upstream: new URL(inject("baseUrl")).host,
    });
  });

  it("keeps one upstream connection alive across requests, streamed or not", async () => {
    const gw = openai(gateway.url, gatewayKey);
    const before = countedConnections;
    for (let i = 0; i < 3; i++) {
      const plain = await gw.chat.completions.create({ model: "up.counted", messages });
      expect(plain.choices[0]!.message.content).toBe("hi there");
      const parts: string[] = [];
      for await (const c of await gw.chat.completions.create({ model: "up.counted", messages, stream: true }))
        parts.push(c.choices[0]?.delta.content ?? "");
      expect(parts.join("")).toBe("hi there");
    }
    // Sequential calls reuse the pooled socket: a new connection per call would cost a TCP handshake each time.
    expect(countedConnections - before).toBe(1);
  });

  it("forwards legacy completions and embeddings", async () => {
    const gw = openai(gateway.url, gatewayKey);
    const direct = await openai().completions.create({ model: MODEL, prompt: "Once", temperature: 0, max_tokens: 6 });
    const via = await gw.completions.create({ model: "up.sm-1", prompt: "Once", temperature: 0, max_tokens: 6 });
    expect(via.choices[0]!.text).toBe(direct.choices[0]!.text);
    expect(via.usage).toEqual(direct.usage);

    const e1 = await openai().embeddings.create({ model: MODEL, input: "the sea", encoding_format: "float" });
    const e2 = await gw.embeddings.create({ model: "up.sm-1", input: "the sea", encoding_format: "float" });
    expect(e2.data[0]!.embedding).toEqual(e1.data[0]!.embedding);
    expect(e2.usage).toEqual(e1.usage);
  });

  it("maps upstream failures to the envelope: 502 for its refusals and outages, 504 for silence", async () => {
    const expectations: [string, number, string, string][] = [
      ["up.bad-key", 502, "server_error", "upstream_error"],
      ["up.unknown-model", 502, "server_error", "upstream_error"],
      ["up.dead", 502, "server_error", "upstream_error"],
      ["up.silent", 504, "server_error", "upstream_timeout"],
    ];
    for (const [model, status, type, code] of expectations) {
      for (const stream of [false, true]) {
        const res = await postV1(
          "/chat/completions",
          { model, messages, max_tokens: 3, stream },
          { base: gateway.url, key: gatewayKey },
        );
        expect(res.status, `${model} stream=${stream}`).toBe(status);
        expect(await res.json()).toEqual({ error: { message: expect.any(String), type, param: null, code } });
      }
    }
    // The upstream's own 400 (here: a prompt longer than its context) reaches the client as that 400.
    const long = [{ role: "user", content: "water ".repeat(8300) }]; // past the local model's 8,192-token context
    const bad = await postV1(
      "/chat/completions",
      { model: "up.sm-1", messages: long, max_tokens: 3 },
      { base: gateway.url, key: gatewayKey },
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    });
  });
});
