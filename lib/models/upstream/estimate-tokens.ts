// Token counts for upstreams that answer without `usage`: o200k_base from
// gpt-tokenizer (bundled, offline), loaded only when first needed.
import type { ChatMessage, GenerationInput } from "@/lib/models/types";

type Encode = (text: string) => number[];
let encoder: Promise<Encode> | undefined;

function getEncoder(): Promise<Encode> {
  encoder ??= import("gpt-tokenizer").then((m) => m.encode as Encode);
  return encoder;
}

// OpenAI's published accounting for chat: ~3 tokens of framing per message, 3 to prime the reply.
const PER_MESSAGE = 3;
const REPLY_PRIMING = 3;

export async function estimatePromptTokens(input: GenerationInput): Promise<number> {
  const encode = await getEncoder();
  if (input.kind === "completion") return encode(input.prompt).length;
  return input.messages.reduce(
    (sum, m: ChatMessage) =>
      sum +
      PER_MESSAGE +
      encode(m.role).length +
      encode(m.toolCalls ? m.content + JSON.stringify(m.toolCalls) : m.content).length,
    REPLY_PRIMING,
  );
}

export async function estimateTokens(texts: string[]): Promise<number> {
  const encode = await getEncoder();
  return texts.reduce((sum, t) => sum + encode(t).length, 0);
}
