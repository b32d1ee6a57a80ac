// @needs server light
// Fallbacks between a model's backends, against scripted OpenAI-wire servers
// on 127.0.0.1: a 500, a 429 or a closed port moves on to the next backend,
// and the usage row lists every attempt; a backend failing again and again is
// cooled down (its server stops being hit) and tried again after the
// cool-down; a stream that already started is never retried elsewhere.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, freePort, startServer, type TestServer } from "./harness";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { closeDbs, openai, postV1, readSse, usageRow } from "./models-helpers";
import { waitFor } from "./wait-for";

interface Upstream extends LoopbackServer {
  hits: number;
}

async function upstream(handler: (req: IncomingMessage, body: any, res: ServerResponse) => void): Promise<Upstream> {
  const state = { hits: 0 };
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      state.hits++;
      handler(req, JSON.parse(raw || "{}"), res);
    });
  });
  const loopback = await listenOnLoopback(server);
  // A getter (Object.assign would copy its value once).
  return {
    url: loopback.url,
    close: loopback.close,
    get hits() {
      return state.hits;
    },
  };
}

const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const chunk = (delta: unknown, finish: string | null = null) =>
  frame({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

/** A healthy OpenAI-wire upstream: chat (streamed or not), completions, embeddings. */
function answerWell(req: IncomingMessage, body: any, res: ServerResponse) {
  if (req.url!.endsWith("/embeddings")) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(
      JSON.stringify({ object: "list", data: [{ object: "embedding", index: 0, embedding: [0.6, 0.8] }], usage }),
    );
  }
  if (req.url!.endsWith("/completions") && !req.url!.endsWith("/chat/completions")) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(
      JSON.stringify({
        id: "cmpl",
        object: "text_completion",
        choices: [{ index: 0, text: "from the good one", finish_reason: "stop" }],
        usage,
      }),
    );
  }
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    const message = { role: "assistant", content: "from the good one" };
    return res.end(
      JSON.stringify({
        id: "chatcmpl",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: "stop" }],
        usage,
      }),
    );
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    chunk({ role: "assistant", content: "from the" }) +
      chunk({ content: " good one" }, "stop") +
      frame({ choices: [], usage }) +
      "data: [DONE]\n\n",
  );
}

const fail = (status: number) => (_req: IncomingMessage, _body: any, res: ServerResponse) => {
  res.writeHead(status, { "content-type": "application/json", "retry-after": "1" });
  res.end(JSON.stringify({ error: { message: `scripted ${status}` } }));
};

/** Starts a stream, sends one chunk, then breaks the connection. */
function breakMidStream(_req: IncomingMessage, _body: any, res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write(chunk({ role: "assistant", content: "half" }));
  setTimeout(() => res.destroy(), 50);
}

// Long enough for four requests (each waits for its usage row, written about once a second) inside the cool-down.
const COOL_SECONDS = 10;
let gateway: TestServer;
let key: string;
let good: Upstream, broken: Upstream, limited: Upstream, flaky: Upstream, cutter: Upstream, spare: Upstream;
const messages = [{ role: "user" as const, content: "hello" }];

beforeAll(async () => {
  [good, broken, limited, flaky, cutter, spare] = await Promise.all([
    upstream(answerWell),
    upstream(fail(500)),
    upstream(fail(429)),
    upstream(fail(503)),
    upstream(breakMidStream),
    upstream(answerWell),
  ]);
  const deadPort = await freePort();
  const backend = (name: string, url: string) => ({ backend: "openai-compatible", name, url: `${url}/v1` });
  // One model per case: cool-down state is per model and backend, so cases do not cool each other's backends.
  const pair = (first: ReturnType<typeof backend>, second = backend("good", good.url)) => ({
    backends: [first, second],
    prices: { input: 1, output: 1 },
  });
  const models: Record<string, unknown> = {
    "fb.429": pair(backend("limited", limited.url)),
    "fb.refused": pair(backend("refused", `http://127.0.0.1:${deadPort}`)),
    "fb.cool": pair(backend("flaky", flaky.url)),
    "fb.cut": pair(backend("cutter", cutter.url), backend("spare", spare.url)),
    "fb.down": pair(backend("broken", broken.url), backend("refused", `http://127.0.0.1:${deadPort}`)),
  };
  for (const endpoint of ["chat", "chat-stream", "completions", "embeddings", "responses"])
    models[`fb.500.${endpoint}`] = pair(backend("broken", broken.url));
  gateway = await startServer({
    env: { MODELS: JSON.stringify(models), MODEL_COOLDOWN_FAILURES: "2", MODEL_COOLDOWN_SECONDS: String(COOL_SECONDS) },
  });
  key = await createOrgKey(gateway, "Fallback Org");
});

afterAll(async () => {
  await closeDbs();
  await gateway?.destroy();
  await Promise.all([good, broken, limited, flaky, cutter, spare].map((u) => u?.close()));
});

const post = (path: string, body: unknown) => postV1(path, body, { base: gateway.url, key });
const attemptsOf = async (res: Response) => {
  const row = await usageRow(res.headers.get("x-request-id")!, gateway.databaseUrl);
  return {
    row,
    attempts: JSON.parse(row.attempts ?? "[]") as { backend: string; status: number; error?: string; ms: number }[],
  };
};

describe("fallbacks", () => {
  it("answers from the second backend when the first answers 500, and the usage row shows both attempts", async () => {
    const res = await post("/chat/completions", { model: "fb.500.chat", messages });
    expect(res.status).toBe(200);
    expect((await res.json()).choices[0].message.content).toBe("from the good one");
    const { row, attempts } = await attemptsOf(res);
    expect(row).toMatchObject({ status: 200, backend: "good", inputTokens: 5, outputTokens: 2 });
    expect(attempts.map((a) => [a.backend, a.status])).toEqual([
      ["broken", 502],
      ["good", 200],
    ]);
    expect(attempts[0]!.error).toMatch(/answered 500: scripted 500/);
    expect(attempts.every((a) => Number.isInteger(a.ms) && a.ms >= 0)).toBe(true);
  });

  it("does the same for a streamed chat, legacy completions, embeddings and responses", async () => {
    const stream = await post("/chat/completions", { model: "fb.500.chat-stream", messages, stream: true });
    expect(stream.status).toBe(200);
    const frames = await readSse(stream);
    expect(frames.at(-1)).toBe("[DONE]");
    expect(
      frames
        .slice(0, -1)
        .map((f) => JSON.parse(f).choices[0]?.delta?.content ?? "")
        .join(""),
    ).toBe("from the good one");

    const completion = await post("/completions", { model: "fb.500.completions", prompt: "hi" });
    expect((await completion.json()).choices[0].text).toBe("from the good one");
    const embedding = await post("/embeddings", { model: "fb.500.embeddings", input: "hi" });
    const [x, y] = (await embedding.json()).data[0].embedding;
    expect([x, y]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    const response = await openai(gateway.url, key)
      .responses.create({ model: "fb.500.responses", input: "hi" })
      .withResponse();
    expect(response.data.output_text).toBe("from the good one");

    for (const res of [stream, completion, embedding, response.response]) {
      const { row, attempts } = await attemptsOf(res);
      expect(row.backend).toBe("good");
      expect(attempts.map((a) => [a.backend, a.status])).toEqual([
        ["broken", 502],
        ["good", 200],
      ]);
    }
  });

  it("moves on after a 429 and after a refused connection", async () => {
    for (const [model, first, status] of [
      ["fb.429", "limited", 429],
      ["fb.refused", "refused", 502],
    ] as const) {
      const res = await post("/chat/completions", { model, messages });
      expect(res.status).toBe(200);
      const { attempts } = await attemptsOf(res);
      expect(attempts.map((a) => [a.backend, a.status])).toEqual([
        [first, status],
        ["good", 200],
      ]);
    }
  });

  it("answers the last failure when every backend failed, with every attempt on record", async () => {
    const res = await post("/chat/completions", { model: "fb.down", messages });
    expect(res.status).toBe(502);
    expect((await res.json()).error.code).toBe("upstream_error");
    const { row, attempts } = await attemptsOf(res);
    expect(row).toMatchObject({ status: 502, backend: null });
    expect(attempts.map((a) => [a.backend, a.status])).toEqual([
      ["broken", 502],
      ["refused", 502],
    ]);
  });

  it("never falls back once a streamed answer has started", async () => {
    const sent = spare.hits;
    const res = await post("/chat/completions", { model: "fb.cut", messages, stream: true });
    expect(res.status).toBe(200);
    const frames = await readSse(res);
    expect(frames.map((f) => JSON.parse(f).choices?.[0]?.delta?.content ?? "").join("")).toBe("half");
    expect(spare.hits).toBe(sent);
    // The break is reported in-band, and nothing from the spare follows.
    expect(JSON.parse(frames.at(-1)!).error.code).toBe("upstream_error");
    expect(spare.hits).toBe(sent);
    const { row, attempts } = await attemptsOf(res);
    expect(row).toMatchObject({ status: 502, backend: "cutter" });
    expect(attempts.map((a) => [a.backend, a.status])).toEqual([["cutter", 200]]);
  });

  // Also: tries it again after the cool-down.
  it("cools down a backend that keeps failing, shows it in /api/health", async () => {
    const ask = async () => {
      const res = await post("/chat/completions", { model: "fb.cool", messages });
      expect(res.status).toBe(200);
      return (await attemptsOf(res)).attempts.map((a) => a.backend);
    };
    // MODEL_COOLDOWN_FAILURES=2: two failures in a row cool it.
    expect(await ask()).toEqual(["flaky", "good"]);
    expect(await ask()).toEqual(["flaky", "good"]);
    const hits = flaky.hits;
    expect(await ask()).toEqual(["good"]);
    expect(await ask()).toEqual(["good"]);
    expect(flaky.hits).toBe(hits);

    const health = await (await fetch(`${gateway.url}/api/health`)).json();
    const cooling = health.checks.models.cooling as {
      model: string;
      backend: string;
      consecutive_failures: number;
      until: string;
    }[];
    expect(cooling).toEqual([expect.objectContaining({ model: "fb.cool", backend: "flaky", consecutive_failures: 2 })]);
    expect(Date.parse(cooling[0]!.until)).toBeGreaterThan(Date.now());

    // After the cool-down the backend is tried again (and, failing, cooled again at once).
    await waitFor(ask, {
      until: (tried) => tried[0] === "flaky",
      timeoutMs: COOL_SECONDS * 1000 + 10_000,
      intervalMs: 250,
      message: "the flaky backend to be tried again",
    });
    expect(flaky.hits).toBe(hits + 1);
    expect(await ask()).toEqual(["good"]);
  });
});
