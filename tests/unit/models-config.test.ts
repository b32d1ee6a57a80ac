// @needs nothing
import { describe, expect, it } from "vitest";
import { parseModelsConfig, type ModelDefaults } from "@/lib/models/config";

const defaults: ModelDefaults = {
  prefix: "svc",
  threads: 1,
  contextSize: 2048,
  parallel: 1,
  queueSize: 64,
  upstreamTimeoutMs: 60_000,
};

describe("MODELS configuration", () => {
  it("defaults to the two known ids on the local placeholder, at the list prices", () => {
    const models = parseModelsConfig(undefined, defaults);
    expect(models.map((m) => m.id)).toEqual(["svc.sm-1", "svc.cua-fast"]);
    expect(
      models.every(
        (m) => m.backends.length === 1 && m.backends[0]!.backend === "local" && m.backends[0]!.path === undefined,
      ),
    ).toBe(true);
    expect(models[0]!.prices).toEqual({ input: 0.2, output: 0.3 });
    expect(models[1]!.prices).toEqual({ input: 0.3, output: 1.0 });
  });

  it("follows MODEL_PREFIX", () => {
    expect(parseModelsConfig("", { ...defaults, prefix: "acme" }).map((m) => m.id)).toEqual([
      "acme.sm-1",
      "acme.cua-fast",
    ]);
  });

  it("reads local and upstream entries with their defaults", () => {
    const models = parseModelsConfig(
      JSON.stringify({
        "svc.sm-1": { backend: "local", path: "/models/a.gguf", contextSize: 4096, threads: 2 },
        "gpt/x": {
          backend: "openai-compatible",
          url: "http://127.0.0.1:8000/v1/",
          apiKey: "k",
          prices: { input: 1, output: 2 },
        },
      }),
      defaults,
    );
    expect(models[0]).toMatchObject({
      prices: { input: 0.2, output: 0.3 },
      backends: [
        { backend: "local", name: "svc.sm-1#1", path: "/models/a.gguf", contextSize: 4096, threads: 2, parallel: 1 },
      ],
    });
    expect(models[1]).toMatchObject({
      prices: { input: 1, output: 2 },
      backends: [
        {
          backend: "openai-compatible",
          url: "http://127.0.0.1:8000/v1",
          upstreamModel: "gpt/x",
          timeoutMs: 60_000,
          responses: "translate",
        },
      ],
    });
  });

  it("reads a list of backends, tried in order, with the model's settings beside it", () => {
    const [model] = parseModelsConfig(
      JSON.stringify({
        "svc.cua-fast": {
          backends: [
            { backend: "openai-compatible", name: "primary", url: "http://127.0.0.1:1/v1", responses: "native" },
            { backend: "openai-compatible", url: "http://127.0.0.1:2/v1", upstreamModel: "other" },
            { backend: "local" },
          ],
          capabilities: { vision: false },
        },
      }),
      defaults,
    );
    expect(model!.backends.map((b) => [b.name, b.backend])).toEqual([
      ["primary", "openai-compatible"],
      ["svc.cua-fast#2", "openai-compatible"],
      ["svc.cua-fast#3", "local"],
    ]);
    expect(model!.backends[0]).toMatchObject({ responses: "native", upstreamModel: "svc.cua-fast" });
    // Capability defaults are the first backend's (an upstream: all true), then the entry's own; an upstream that
    // cannot see refuses images.
    expect(model!.capabilities).toEqual({
      vision: false,
      tools: true,
      json_schema: true,
      embeddings: true,
      image_inputs: "refused",
    });
    expect(model!.prices).toEqual({ input: 0.3, output: 1.0 });
  });

  it("names the bad field of a backend list", () => {
    const chain = (backends: unknown[]) => JSON.stringify({ a: { backends } });
    expect(() => parseModelsConfig(chain([]), defaults)).toThrow(/MODELS\.a\.backends: list at least one backend/);
    expect(() => parseModelsConfig(chain([{ backend: "local", prices: { input: 1, output: 1 } }]), defaults)).toThrow(
      /MODELS\.a\.backends\.0/,
    );
    expect(() =>
      parseModelsConfig(
        chain([
          { backend: "local", name: "x" },
          { backend: "local", name: "x" },
        ]),
        defaults,
      ),
    ).toThrow(/'x' is used twice/);
    expect(() => parseModelsConfig(JSON.stringify({ a: { backend: "local", responses: "native" } }), defaults)).toThrow(
      /MODELS\.a/,
    );
  });

  it("names the bad field", () => {
    expect(() => parseModelsConfig("{", defaults)).toThrow(/MODELS is not valid JSON/);
    expect(() => parseModelsConfig(JSON.stringify({ a: { backend: "magic" } }), defaults)).toThrow(
      /MODELS\.a\.backend/,
    );
    expect(() =>
      parseModelsConfig(JSON.stringify({ a: { backend: "openai-compatible", url: "ftp://x" } }), defaults),
    ).toThrow(/MODELS\.a\.url/);
    expect(() => parseModelsConfig(JSON.stringify({ a: { backend: "local", thread: 2 } }), defaults)).toThrow(
      /MODELS\.a/,
    );
    expect(() => parseModelsConfig(JSON.stringify({ "bad id!": { backend: "local" } }), defaults)).toThrow(/model ids/);
    expect(() => parseModelsConfig("{}", defaults)).toThrow(/at least one model/);
  });

  it("reads anthropic and google entries, with each provider's own URL by default", () => {
    const models = parseModelsConfig(
      JSON.stringify({
        claude: { backend: "anthropic", apiKey: "sk-ant", upstreamModel: "claude-sonnet-4-5" },
        gemini: { backend: "google", url: "http://127.0.0.1:9/v1beta/", timeoutMs: 5000 },
      }),
      defaults,
    );
    expect(models[0]!.backends[0]).toEqual({
      backend: "anthropic",
      id: "claude",
      name: "claude#1",
      url: "https://api.anthropic.com/v1",
      apiKey: "sk-ant",
      upstreamModel: "claude-sonnet-4-5",
      timeoutMs: 60_000,
    });
    expect(models[0]!.capabilities).toMatchObject({
      vision: true,
      tools: true,
      embeddings: false,
      image_inputs: "seen",
    });
    expect(models[1]!.backends[0]).toMatchObject({
      backend: "google",
      url: "http://127.0.0.1:9/v1beta",
      upstreamModel: "gemini",
    });
    expect(() =>
      parseModelsConfig(JSON.stringify({ c: { backend: "anthropic", responses: "native" } }), defaults),
    ).toThrow(/MODELS\.c/);
  });

  it("takes the computer tool a native upstream's model was trained on", () => {
    const [model] = parseModelsConfig(
      JSON.stringify({
        o: {
          backend: "openai-compatible",
          url: "http://h/v1",
          responses: "native",
          computerTool: "computer_use_preview",
        },
      }),
      defaults,
    );
    expect(model!.backends[0]).toMatchObject({ computerTool: "computer_use_preview" });
    expect(() =>
      parseModelsConfig(
        JSON.stringify({ o: { backend: "openai-compatible", url: "http://h/v1", computerTool: "mouse" } }),
        defaults,
      ),
    ).toThrow(/computerTool must be computer_use or computer_use_preview/);
  });
});
