// @needs nothing
// acceptSimpleChatBody may skip chatCompletionSchema only where the schema
// would accept the body and return the same value: checked on typical bodies
// and on thousands of generated ones mixing valid and invalid values.
import { describe, expect, it } from "vitest";
import { chatCompletionSchema } from "@/lib/models/gateway/schemas";
import { acceptSimpleChatBody } from "@/lib/models/gateway/simple-chat-body";

/** mulberry32: a seeded generator, so a failure reproduces. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const odd = [
  null,
  "",
  "x",
  0,
  -0,
  1,
  1.5,
  -1,
  2,
  2.5,
  -2.5,
  2 ** 53,
  true,
  false,
  [],
  ["a"],
  {},
  { include_usage: true },
];
const candidates: Record<string, unknown[]> = {
  model: ["bench.up", "svc.sm-1", "", 3, null],
  temperature: [0, 0.7, 2, 2.0001, -0.1, "1", null],
  top_p: [1, 0.5, 0, 1.1, null],
  max_tokens: [1, 8, 0, 1.5, 2 ** 53, "8", null],
  max_completion_tokens: [16, 0, -3, null],
  stream: [true, false, "true", null],
  stream_options: [
    { include_usage: true },
    { include_usage: false },
    {},
    { include_usage: "yes" },
    { include_usage: true, extra: 1 },
    null,
  ],
  seed: [0, 42, -7, 1.25, null],
  n: [1, 2, null],
  stop: ["\n", ["a", "b"], ["a", "b", "c", "d", "e"], [1], null],
  user: ["u-1", 5, null],
  presence_penalty: [0, 2, -2, 2.5, null],
  frequency_penalty: [0.5, -3, null],
  tools: [[{ type: "function", function: { name: "f" } }]],
  logit_bias: [{ "1": 2 }],
  unknown_parameter: [1],
};
const messages: unknown[] = [
  { role: "user", content: "hi" },
  { role: "system", content: "be brief" },
  { role: "developer", content: "" },
  { role: "assistant", content: "hello" },
  { role: "user", content: "hi", name: "ann" },
  { role: "user", content: "hi", name: 3 },
  { role: "assistant", content: null },
  {
    role: "assistant",
    content: "x",
    tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
  },
  { role: "tool", content: "42", tool_call_id: "c1" },
  { role: "user", content: [{ type: "text", text: "hi" }] },
  { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AA==" } }] },
  { role: "robot", content: "hi" },
  { role: "user" },
  { role: "user", content: "hi", extra: true },
  "hi",
  null,
];

function generatedBody(next: () => number): unknown {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const body: Record<string, unknown> = {};
  if (next() < 0.95) body.model = next() < 0.8 ? "bench.up" : pick([...candidates.model!, ...odd]);
  if (next() < 0.95)
    body.messages =
      next() < 0.1
        ? pick(odd)
        : Array.from({ length: Math.floor(next() * 4) }, () =>
            next() < 0.7 ? messages[Math.floor(next() * 5)] : pick(messages),
          );
  for (const [key, values] of Object.entries(candidates)) {
    if (key === "model" || next() > 0.15) continue;
    body[key] = next() < 0.9 ? pick(values) : pick(odd);
  }
  return JSON.parse(JSON.stringify(body)); // as it arrives: parsed JSON
}

describe("acceptSimpleChatBody", () => {
  it("accepts the common text chat requests, as sent", () => {
    const bodies = [
      { model: "bench.up", messages: [{ role: "user", content: "hi" }], max_tokens: 8, stream: false },
      {
        model: "m",
        messages: [
          { role: "system", content: "s" },
          { role: "user", content: "q", name: "ann" },
        ],
        temperature: 0,
        top_p: 1,
        stream: true,
        stream_options: { include_usage: true },
      },
      {
        model: "m",
        messages: [
          { role: "developer", content: "d" },
          { role: "assistant", content: "a" },
        ],
        max_completion_tokens: 4,
        seed: 1,
        n: 1,
        stop: ["\n"],
        user: "u",
        presence_penalty: 0,
        frequency_penalty: -1,
      },
    ];
    for (const body of bodies) {
      expect(acceptSimpleChatBody(body)).toBe(body);
      expect(chatCompletionSchema.parse(body)).toStrictEqual(body);
    }
  });

  it("leaves tools, content parts, tool messages, nulls and unknown keys to the schema", () => {
    const base = { model: "m", messages: [{ role: "user", content: "hi" }] };
    const others = [
      { ...base, tools: [{ type: "function", function: { name: "f" } }] },
      { ...base, messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
      { ...base, messages: [{ role: "tool", content: "1", tool_call_id: "c" }] },
      { ...base, temperature: null },
      { ...base, max_tokens: 0 },
      { ...base, stream_options: { include_usage: true, other: 1 } },
      { ...base, response_format: { type: "json_object" } },
      JSON.parse('{"model":"m","messages":[{"role":"user","content":"hi"}],"__proto__":{"x":1}}'),
      JSON.parse('{"model":"m","messages":[{"role":"user","content":"hi","__proto__":{}}]}'),
      { model: "m" },
      [base],
    ];
    for (const body of others) expect(acceptSimpleChatBody(body)).toBeUndefined();
  });

  // Its own timeout: 20,000 bodies take about a second alone and more than the default 5 s on a loaded machine.
  it("on 20,000 generated bodies, accepts only what the schema accepts, with the schema's value", () => {
    const next = random(20261127);
    let accepted = 0;
    let refusedBySchema = 0;
    for (let i = 0; i < 20_000; i++) {
      const body = generatedBody(next);
      const parsed = chatCompletionSchema.safeParse(body);
      if (!parsed.success) refusedBySchema++;
      if (acceptSimpleChatBody(body) === undefined) continue;
      accepted++;
      expect(parsed.success, JSON.stringify(body)).toBe(true);
      expect(parsed.data).toStrictEqual(body);
    }
    // The generator reaches both sides: a check that accepted nothing would prove nothing.
    expect(accepted).toBeGreaterThan(1_000);
    expect(refusedBySchema).toBeGreaterThan(1_000);
  }, 60_000);
});
