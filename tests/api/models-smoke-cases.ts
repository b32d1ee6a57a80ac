// The model API's smoke cases, written once for any server: the production
// build (whose /v1 goes through the custom server's fast path) and the
// development server (whose /v1 goes through Next's catch-all route) both run
// exactly this list, so the two ways into the one route table cannot drift.
import { expect } from "vitest";
import { call } from "./client";
import { CUA, MODEL, openai } from "./models-helpers";

export interface SmokeTarget {
  base: string;
  key: string;
}

export interface SmokeCase {
  name: string;
  run(target: SmokeTarget): Promise<void>;
}

const messages = [{ role: "user" as const, content: "Describe the water of the sea." }];
const envelope = (type: string, code: string) => ({ error: { message: expect.any(String), type, param: null, code } });

export const MODEL_SMOKE_CASES: SmokeCase[] = [
  {
    name: "lists the models",
    async run({ base, key }) {
      const page = await openai(base, key).models.list();
      expect(page.data.map((m) => m.id)).toEqual(expect.arrayContaining([MODEL, CUA]));
    },
  },
  {
    name: "gets one model",
    async run({ base, key }) {
      expect(await openai(base, key).models.retrieve(CUA)).toMatchObject({ id: CUA, object: "model" });
    },
  },
  {
    name: "answers a chat completion, then the same text streamed",
    async run({ base, key }) {
      const client = openai(base, key);
      const full = await client.chat.completions.create({ model: MODEL, messages, temperature: 0, max_tokens: 8 });
      expect(full).toMatchObject({ object: "chat.completion", model: MODEL, usage: { completion_tokens: 8 } });
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages,
        temperature: 0,
        max_tokens: 8,
        stream: true,
      });
      const deltas: string[] = [];
      for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? "");
      expect(deltas.join("")).toBe(full.choices[0]!.message.content);
    },
  },
  {
    name: "answers an unknown path with a JSON 404",
    async run({ base, key }) {
      const res = await call("POST", "/v1/no/such/thing", { base, key, body: {} });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body).toEqual(envelope("not_found_error", "unknown_url"));
    },
  },
  {
    name: "answers a wrong method with a JSON 405 and allow",
    async run({ base, key }) {
      for (const [method, path, allow] of [
        ["GET", "/v1/chat/completions", "POST"],
        ["POST", "/v1/models", "GET"],
      ] as const) {
        const res = await call(method, path, { base, key, body: method === "POST" ? {} : undefined });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get("allow")).toBe(allow);
        expect(res.body).toEqual(envelope("invalid_request_error", "method_not_allowed"));
        expect(res.headers.get("x-ratelimit-limit-requests")).toBeTruthy();
      }
    },
  },
  {
    name: "refuses a missing key with a 401",
    async run({ base }) {
      const res = await call("GET", "/v1/models", { base, key: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(envelope("authentication_error", "invalid_api_key"));
    },
  },
];
