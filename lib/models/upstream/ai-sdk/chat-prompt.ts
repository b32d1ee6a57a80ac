// An OpenAI chat completion request in the AI SDK's provider terms
// (LanguageModelV3 call options), so a provider package (@ai-sdk/anthropic,
// @ai-sdk/google) turns it into its own wire format. Images go as the caller
// sent them: a data: URL as its bytes (base64), an http(s) URL as a URL, which
// the provider passes on for the service to fetch (docs/models.md "Backends").
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3TextPart,
  LanguageModelV3ToolChoice,
} from "@ai-sdk/provider";
import type { ChatCompletionRequest } from "@/lib/models/gateway/schemas";
import type { ChatOptions } from "@/lib/models/generation/tools";
import type { SamplingParams } from "@/lib/models/types";

type ChatMessage = ChatCompletionRequest["messages"][number];
type Content = string | { type: string; text?: string; image_url?: { url: string } }[] | null | undefined;

const DATA_URL = /^data:([^;,]+)?(;base64)?,(.*)$/is;

/** An image as a file part: a data: URL's bytes, or the URL itself for the service to fetch. */
export function imagePart(url: string): LanguageModelV3FilePart {
  const data = DATA_URL.exec(url);
  if (data) {
    const [, mediaType = "image/png", base64, payload = ""] = data;
    const bytes = base64 ? payload : Buffer.from(decodeURIComponent(payload), "utf8").toString("base64");
    return { type: "file", mediaType, data: bytes };
  }
  return { type: "file", mediaType: "image/*", data: new URL(url) };
}

/** The arguments a tool call carries, as the object the provider sends ({} when they are not JSON). */
export function parseArguments(args: string): unknown {
  try {
    const value = JSON.parse(args || "{}") as unknown;
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

const textOf = (content: Content): string =>
  content == null ? "" : typeof content === "string" ? content : content.map((p) => p.text ?? "").join("");

function userParts(content: Content): (LanguageModelV3TextPart | LanguageModelV3FilePart)[] {
  if (content == null) return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part) =>
    part.type === "image_url" && part.image_url
      ? imagePart(part.image_url.url)
      : { type: "text", text: part.text ?? "" },
  );
}

/**
 * The conversation as provider messages. System and developer turns are joined into the one system
 * prompt at the start (the Messages API has a single `system`); consecutive turns of a role are
 * merged, as the providers' own wire formats require.
 */
export function toPrompt(messages: readonly ChatMessage[]): LanguageModelV3Message[] {
  const system = messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => textOf(m.content));
  const prompt: LanguageModelV3Message[] = system.length ? [{ role: "system", content: system.join("\n\n") }] : [];
  const toolNames = new Map<string, string>();
  const append = (message: LanguageModelV3Message) => {
    const last = prompt.at(-1);
    if (last && last.role === message.role && last.role !== "system")
      (last.content as unknown[]).push(...(message.content as unknown[]));
    else prompt.push(message);
  };
  for (const m of messages) {
    if (m.role === "user") append({ role: "user", content: userParts(m.content) });
    else if (m.role === "assistant") {
      const text = textOf(m.content);
      const calls = (m.tool_calls ?? []).map((call) => {
        toolNames.set(call.id, call.function.name);
        return {
          type: "tool-call" as const,
          toolCallId: call.id,
          toolName: call.function.name,
          input: parseArguments(call.function.arguments),
        };
      });
      append({ role: "assistant", content: [...(text ? [{ type: "text" as const, text }] : []), ...calls] });
    } else if (m.role === "tool") {
      append({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: m.tool_call_id,
            toolName: toolNames.get(m.tool_call_id) ?? "tool",
            output: { type: "text", value: textOf(m.content) },
          },
        ],
      });
    }
  }
  return prompt;
}

export function toToolChoice(choice: ChatOptions["toolChoice"]): LanguageModelV3ToolChoice {
  return typeof choice === "object" ? { type: "tool", toolName: choice.name } : { type: choice };
}

/** Everything but the prompt, tools and abort signal: sampling and the answer's form. */
export function samplingOptions(
  params: SamplingParams,
  options: ChatOptions,
): Omit<LanguageModelV3CallOptions, "prompt" | "tools" | "toolChoice"> {
  const format = options.responseFormat;
  return {
    maxOutputTokens: params.maxTokens,
    temperature: params.temperature,
    topP: params.topP,
    seed: params.seed,
    stopSequences: params.stop.length ? params.stop : undefined,
    presencePenalty: params.presencePenalty,
    frequencyPenalty: params.frequencyPenalty,
    responseFormat:
      format?.type === "json_schema"
        ? {
            type: "json",
            schema: format.json_schema.schema as never,
            name: format.json_schema.name,
            description: format.json_schema.description ?? undefined,
          }
        : format?.type === "json_object"
          ? { type: "json" }
          : undefined,
  };
}

/** The request's function tools in provider terms. */
export function functionTools(options: ChatOptions): NonNullable<LanguageModelV3CallOptions["tools"]> {
  return options.tools.map((tool) => ({
    type: "function" as const,
    name: tool.function.name,
    description: tool.function.description ?? undefined,
    inputSchema: (tool.function.parameters ?? { type: "object", properties: {} }) as never,
  }));
}
