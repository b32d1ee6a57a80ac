// @needs server light
// Every /v1 body is strict: a parameter the server does not know is a 400 in
// the OpenAI envelope naming it (`param`), never silently dropped; the
// parameters the README lists as accepted still pass.
import { describe, expect, it } from "vitest";
import { MODEL, postV1 } from "./models-helpers";

describe("strict /v1 bodies", () => {
  it.each([
    ["/completions", { model: MODEL, prompt: "a", max_tokens: 1, echo: true }, "echo"],
    ["/completions", { model: MODEL, prompt: "a", max_tokens: 1, best_of: 2 }, "best_of"],
    ["/completions", { model: MODEL, prompt: "a", max_tokens: 1, tempreature: 0 }, "tempreature"],
    ["/embeddings", { model: MODEL, input: "a", encodingformat: "float" }, "encodingformat"],
    ["/chat/completions", { model: MODEL, messages: [{ role: "user", content: "a" }], functions: [] }, "functions"],
    ["/responses", { model: MODEL, input: "a", reasoning: { effort: "low" } }, "reasoning"],
  ])("POST %s with an unknown field answers 400 naming it", async (path, body, param) => {
    const res = await postV1(path, body);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toMatchObject({ type: "invalid_request_error", param });
    expect(error.message).toContain(param);
  });

  it("accepts the listed parameters on completions and embeddings", async () => {
    const completion = await postV1("/completions", {
      model: MODEL,
      prompt: "a",
      max_tokens: 1,
      user: "u1",
      presence_penalty: 0.5,
      frequency_penalty: 0.5,
      logit_bias: { "1": 1 },
    });
    expect(completion.status).toBe(200);
    expect((await postV1("/embeddings", { model: MODEL, input: "a", user: "u1" })).status).toBe(200);
  });
});
