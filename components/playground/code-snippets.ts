// "View code": the playground's current call as the user would make it against
// /v1 with an API key, in three forms. Pure, so it is unit-tested.

export interface CodeCall {
  /** This server's public origin, e.g. https://cabin.example.com (no trailing slash). */
  origin: string;
  model: string;
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  temperature: number;
  maxTokens: number;
}

export type SnippetLanguage = "openai" | "ai-sdk" | "curl";

const js = (value: unknown, indent: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${" ".repeat(indent)}`);

function openaiSnippet(call: CodeCall): string {
  return `import OpenAI from "openai";

const client = new OpenAI({
  baseURL: "${call.origin}/v1",
  apiKey: process.env.CABIN_API_KEY,
});

const stream = await client.chat.completions.create({
  model: ${JSON.stringify(call.model)},
  messages: ${js(call.messages, 2)},
  temperature: ${call.temperature},
  max_tokens: ${call.maxTokens},
  stream: true,
});
for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
`;
}

function aiSdkSnippet(call: CodeCall): string {
  return `import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";

const cabin = createOpenAICompatible({
  name: "cabin",
  baseURL: "${call.origin}/v1",
  apiKey: process.env.CABIN_API_KEY,
  includeUsage: true,
});

const result = streamText({
  model: cabin(${JSON.stringify(call.model)}),
  messages: ${js(call.messages, 2)},
  temperature: ${call.temperature},
  maxOutputTokens: ${call.maxTokens},
});
for await (const text of result.textStream) process.stdout.write(text);
console.log(await result.usage);
`;
}

/** A shell single-quoted string: ' closes, \\' is a literal quote, ' reopens. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlSnippet(call: CodeCall): string {
  const body = {
    model: call.model,
    messages: call.messages,
    temperature: call.temperature,
    max_tokens: call.maxTokens,
    stream: true,
  };
  return `curl ${call.origin}/v1/chat/completions \\
  -H "Authorization: Bearer $CABIN_API_KEY" \\
  -H "Content-Type: application/json" \\
  --no-buffer \\
  -d ${shellQuote(JSON.stringify(body, null, 2))}
`;
}

export const SNIPPETS: Record<SnippetLanguage, { label: string; build: (call: CodeCall) => string }> = {
  openai: { label: "openai (JS)", build: openaiSnippet },
  "ai-sdk": { label: "AI SDK", build: aiSdkSnippet },
  curl: { label: "curl", build: curlSnippet },
};
