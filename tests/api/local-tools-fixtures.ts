// The two tools (and a question that calls for one) the local-model suites offer the
// placeholder model, with the zod schemas its forced calls must validate against.
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { expect } from "vitest";
import { z } from "zod";

const weatherArgs = z.strictObject({
  city: z.string(),
  unit: z.enum(["celsius", "fahrenheit"]),
  days: z.number(),
  tags: z.array(z.string()),
  detailed: z.boolean().optional(),
  at: z.strictObject({ lat: z.number(), lon: z.number() }),
});
export const timeArgs = z.strictObject({ zone: z.string().max(10) });

export const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: { name: "get_weather", description: "Weather for a city", parameters: z.toJSONSchema(weatherArgs) },
  },
  { type: "function", function: { name: "get_time", parameters: z.toJSONSchema(timeArgs) } },
];
const validators: Record<string, z.ZodType> = { get_weather: weatherArgs, get_time: timeArgs };
export const question: ChatCompletionMessageParam[] = [{ role: "user", content: "What is the weather in Paris?" }];

/** A call's arguments parse as JSON and validate against its tool's schema. */
export function expectValidCall(call: { function: { name: string; arguments: string } }) {
  const validator = validators[call.function.name];
  expect(validator, call.function.name).toBeDefined();
  const parsed = validator!.safeParse(JSON.parse(call.function.arguments));
  expect(parsed.success, `${call.function.arguments} → ${parsed.error?.message}`).toBe(true);
}
