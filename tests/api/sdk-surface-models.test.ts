// @needs server light
// The public Lightcone SDKs' model methods (models.list, chat.createCompletion at /chat/completions,
// responses.create/retrieve/cancel) against a fresh install's placeholder model, sent as their
// generated clients send them (sdk-surface-fixtures.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, type Target } from "./computers-fixtures";
import {
  ChatCompletion,
  expectShape,
  ModelList,
  ResponseObject,
  sdkAction as action,
  sdkCall,
  sdkCreateSession,
} from "./sdk-surface-fixtures";

let shared: Required<Target>;
const created: Array<{ id: string; t: Required<Target> }> = [];
beforeAll(async () => {
  shared = { base: inject("baseUrl"), key: inject("apiKey") };
  // The examples send a screenshot of a browser session to the model.
  await sdkCreateSession(shared, {}, "js", created);
});
afterAll(async () => {
  await Promise.all(created.map(({ id, t }) => api("DELETE", `/computers/${id}`, undefined, t)));
});

describe("the SDKs' model methods on a fresh install's placeholder model", () => {
  it("models.list (GET /v1/models)", async () => {
    const res = await sdkCall(shared, { method: "GET", path: "/v1/models" });
    expect(expectShape(ModelList, res.body, "models.list").data.map((m) => m.id)).toContain(
      "tzafon.northstar-cua-fast",
    );
  });

  it("chat.createCompletion posts to /chat/completions (no /v1 in the SDKs' path)", async () => {
    const res = await sdkCall(shared, {
      method: "POST",
      path: "/chat/completions",
      body: { model: "svc.sm-1", messages: [{ role: "user", content: "Say hi" }], max_tokens: 8 },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expectShape(ChatCompletion, res.body, "chat.createCompletion");
  });

  it("responses.create with the examples' tools, responses.retrieve (query), responses.cancel", {
    timeout: 120_000,
  }, async () => {
    const body = {
      model: "tzafon.northstar-cua-fast",
      input: [{ role: "user", content: [{ type: "input_text", text: "Press Go" }] }],
      tools: [
        { type: "computer_use", display_width: 1280, display_height: 720, environment: "desktop" },
        {
          type: "function",
          name: "done",
          description: "Call this when the task is complete.",
          parameters: { type: "object", properties: { message: { type: "string" } } },
        },
      ],
      tool_choice: "required",
      temperature: 0,
    };
    const made = await sdkCall(shared, { method: "POST", path: "/v1/responses", body });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(200);
    const response = expectShape(ResponseObject, made.body, "responses.create");
    expect(response.output.some((o) => o.type === "computer_call" || o.type === "function_call")).toBe(true);
    const got = await sdkCall(shared, {
      method: "GET",
      path: `/v1/responses/${response.id}`,
      query: { include: "message.output_text.logprobs" },
    });
    expect(expectShape(ResponseObject, got.body, "responses.retrieve").id).toBe(response.id);
    // monitor.py, qa.py, competitor_research.py's extraction: no tools, an image part without `detail`.
    const shot = await action(shared, {
      method: "POST",
      path: `/computers/${created[0]!.id}/screenshot`,
      body: { base64: false },
    });
    const plain = await sdkCall(shared, {
      method: "POST",
      path: "/v1/responses",
      body: {
        model: "tzafon.northstar-cua-fast",
        input: [
          {
            role: "user",
            content: [
              { type: "input_text", text: "Describe the screen." },
              { type: "input_image", image_url: shot.result?.screenshot_url },
            ],
          },
        ],
      },
    });
    expect(plain.status, JSON.stringify(plain.body).slice(0, 300)).toBe(200);
    expect(
      expectShape(ResponseObject, plain.body, "responses.create without tools").output.some(
        (o) => o.type === "message",
      ),
    ).toBe(true);
    // OpenAI's rule: only a background response can be cancelled; this one is complete.
    const cancel = await sdkCall(shared, { method: "POST", path: `/v1/responses/${response.id}/cancel` });
    expect(cancel.status).toBe(400);
    expect(cancel.body.error).toMatchObject({ type: "invalid_request_error" });
  });
});
