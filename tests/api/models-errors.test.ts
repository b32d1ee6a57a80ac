// @needs server light
// Every refusal of the model API answers the OpenAI error envelope with the
// right status, type, param and code.
import { describe, expect, it } from "vitest";
import { call } from "./client";
import { MODEL } from "./models-helpers";

const chat = (extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  messages: [{ role: "user", content: "hi" }],
  max_tokens: 2,
  ...extra,
});

function envelope(type: string, code: string, param: string | null = null) {
  return { error: { message: expect.any(String), type, param, code } };
}

describe("model API errors", () => {
  const badBodies: [string, string, unknown, string | null][] = [
    ["temperature above 2", "/chat/completions", chat({ temperature: 2.5 }), "temperature"],
    ["temperature below 0", "/chat/completions", chat({ temperature: -0.1 }), "temperature"],
    ["n other than 1", "/chat/completions", chat({ n: 2 }), "n"],
    ["a tool that is not a function", "/chat/completions", chat({ tools: [{ type: "retrieval" }] }), "tools[0].type"],
    ["max_tokens of 0", "/chat/completions", chat({ max_tokens: 0 }), "max_tokens"],
    ["a non-integer max_tokens", "/chat/completions", chat({ max_tokens: 2.5 }), "max_tokens"],
    ["top_p above 1", "/chat/completions", chat({ top_p: 1.5 }), "top_p"],
    ["a non-boolean stream", "/chat/completions", chat({ stream: "yes" }), "stream"],
    ["a stop of numbers", "/chat/completions", chat({ stop: [1, 2] }), "stop"],
    ["more than 4 stop sequences", "/chat/completions", chat({ stop: ["a", "b", "c", "d", "e"] }), "stop"],
    ["no model", "/chat/completions", { messages: [{ role: "user", content: "hi" }] }, "model"],
    ["no messages", "/chat/completions", { model: MODEL }, "messages"],
    ["empty messages", "/chat/completions", chat({ messages: [] }), "messages"],
    ["an unknown role", "/chat/completions", chat({ messages: [{ role: "robot", content: "x" }] }), "messages[0].role"],
    [
      "a tool turn without tool_call_id",
      "/chat/completions",
      chat({ messages: [{ role: "tool", content: "x" }] }),
      "messages[0].tool_call_id",
    ],
    [
      "an image URL that is neither data: nor http(s)",
      "/chat/completions",
      chat({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] }),
      "messages[0].content[0].image_url.url",
    ],
    ["a body that is not an object", "/chat/completions", [1, 2], null],
    ["no prompt", "/completions", { model: MODEL }, "prompt"],
    ["two prompts", "/completions", { model: MODEL, prompt: ["a", "b"] }, "prompt"],
    ["temperature 3 on completions", "/completions", { model: MODEL, prompt: "a", temperature: 3 }, "temperature"],
    ["empty embedding input", "/embeddings", { model: MODEL, input: "" }, "input"],
    [
      "an unknown encoding_format",
      "/embeddings",
      { model: MODEL, input: "a", encoding_format: "hex" },
      "encoding_format",
    ],
    ["dimensions", "/embeddings", { model: MODEL, input: "a", dimensions: 8 }, "dimensions"],
  ];
  for (const [what, path, body, param] of badBodies) {
    it(`400 for ${what}`, async () => {
      const res = await call("POST", `/v1${path}`, { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope("invalid_request_error", "invalid_request", param));
      if (param) expect(res.body.error.message).toContain(param.replace(/\[.*$/, ""));
    });
  }

  it("400 invalid_json for malformed JSON and an empty body", async () => {
    for (const rawBody of ["{", ""]) {
      const res = await call("POST", "/v1/chat/completions", { rawBody });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope("invalid_request_error", "invalid_json"));
    }
  });

  it("413 for a body over 32 MiB", async () => {
    const res = await call("POST", "/v1/embeddings", {
      rawBody: JSON.stringify({ model: MODEL, input: "x".repeat(33 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(envelope("invalid_request_error", "payload_too_large"));
  });

  it("400 context_length_exceeded when the prompt fills the context", async () => {
    const res = await call("POST", "/v1/completions", {
      body: { model: MODEL, prompt: "water ".repeat(8300), max_tokens: 4 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope("invalid_request_error", "context_length_exceeded", "prompt"));
  });

  it("404 model_not_found for an unknown model on every endpoint", async () => {
    for (const [path, body] of [
      ["/chat/completions", chat({ model: "svc.nope" })],
      ["/completions", { model: "svc.nope", prompt: "a" }],
      ["/embeddings", { model: "svc.nope", input: "a" }],
    ] as const) {
      const res = await call("POST", `/v1${path}`, { body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(envelope("not_found_error", "model_not_found", "model"));
    }
    const one = await call("GET", "/v1/models/svc.nope");
    expect(one.status).toBe(404);
    expect(one.body.error.code).toBe("model_not_found");
  });

  it("401 invalid_api_key for a missing, malformed or unknown key", async () => {
    for (const key of [null, "not-a-key", `cbn_${"x".repeat(48)}`]) {
      for (const path of ["/v1/chat/completions", "/v1/completions", "/v1/embeddings"]) {
        const res = await call("POST", path, { key, body: chat() });
        expect(res.status).toBe(401);
        expect(res.body).toEqual(envelope("authentication_error", "invalid_api_key"));
      }
    }
  });

  it("404 JSON envelope for an unknown /v1 path, 405 for a wrong method", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const res = await call(method, "/v1/no/such/thing", method === "POST" ? { body: {} } : {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual(envelope("not_found_error", "unknown_url"));
    }
    const wrong = await call("GET", "/v1/chat/completions");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(wrong.body).toEqual(envelope("invalid_request_error", "method_not_allowed"));
  });

  it("sends the x-ratelimit-* headers on successes and refusals alike", async () => {
    for (const res of [
      await call("GET", "/v1/models"),
      await call("POST", "/v1/chat/completions", { body: chat({ n: 3 }) }),
    ]) {
      for (const h of ["limit", "remaining", "reset"]) {
        expect(res.headers.get(`x-ratelimit-${h}-requests`)).toBeTruthy();
        expect(res.headers.get(`x-ratelimit-${h}-tokens`)).toBeTruthy();
      }
    }
  });
});
