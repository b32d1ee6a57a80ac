// The common chat request, accepted without zod: text messages and the usual
// sampling parameters, nothing else. zod answers in about a microsecond when
// its code is hot, but the gateway's requests arrive after idle gaps on a
// shared machine, and there `chatCompletionSchema` cost ~140 µs per request
// (the latency bench, timed inside the server), the largest step of Cabin's
// own work in the hop. This check touches far less. It only ever accepts: anything it is
// not sure of (tools, image parts, nulls, unknown or unusual keys) returns
// undefined and goes to the schema, which is the one place errors are worded.
// tests/unit/simple-chat-body.test.ts proves that what it accepts the schema
// accepts too, with the same value.
import type { ChatCompletionRequest } from "@/lib/models/gateway/schemas";

type Check = (value: unknown) => boolean;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isNumberIn =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === "number" && Number.isFinite(v) && v >= min && v <= max;
const isPositiveInt: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 1;
const isString: Check = (v) => typeof v === "string";
const isBoolean: Check = (v) => typeof v === "boolean";

// Each key's check is the schema's rule for a non-null value (lib/models/gateway/schemas.ts).
// A Map, so keys such as "__proto__" or "toString" find nothing.
const PARAMETERS = new Map<string, Check>(
  Object.entries({
    model: (v) => typeof v === "string" && v.length > 0,
    messages: (v) => Array.isArray(v) && v.length > 0 && v.every(isTextMessage),
    temperature: isNumberIn(0, 2),
    top_p: (v) => typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 1,
    max_tokens: isPositiveInt,
    max_completion_tokens: isPositiveInt,
    stream: isBoolean,
    // The schema's stream_options drops unknown keys, so only the known one is taken as is.
    stream_options: (v) => isPlainObject(v) && Object.keys(v).every((k) => k === "include_usage" && isBoolean(v[k])),
    seed: (v) => Number.isSafeInteger(v),
    n: (v) => v === 1,
    stop: (v) => isString(v) || (Array.isArray(v) && v.length <= 4 && v.every(isString)),
    user: isString,
    presence_penalty: isNumberIn(-2, 2),
    frequency_penalty: isNumberIn(-2, 2),
  }),
);

const TEXT_ROLES = new Set(["system", "developer", "user", "assistant"]);
// Message objects are loose in the schema: `name` passes through as sent.
const MESSAGE_KEYS = new Set(["role", "content", "name"]);

function isTextMessage(m: unknown): boolean {
  if (!isPlainObject(m) || !TEXT_ROLES.has(m.role as string) || typeof m.content !== "string") return false;
  for (const key in m) if (!MESSAGE_KEYS.has(key) || (key === "name" && !isString(m.name))) return false;
  return true;
}

/**
 * The body as a ChatCompletionRequest when it is a plain text chat request; else undefined (validate with the schema).
 */
export function acceptSimpleChatBody(body: unknown): ChatCompletionRequest | undefined {
  if (!isPlainObject(body) || !("model" in body) || !("messages" in body)) return undefined;
  for (const key in body) {
    const check = PARAMETERS.get(key);
    if (!check || !check(body[key])) return undefined;
  }
  return body as ChatCompletionRequest;
}
