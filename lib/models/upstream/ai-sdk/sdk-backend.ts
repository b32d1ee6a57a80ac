// A backend on one of the AI SDK's provider packages (@ai-sdk/anthropic,
// @ai-sdk/google): the chat request becomes the provider's call options, the
// provider speaks its own wire format, and its answer (whole, or streamed part
// by part) becomes the same text and tool-call deltas as any other backend's,
// with the usage the provider reports. Errors keep the provider's message and
// status (`upstreamStatusError`); every wait is bounded by the timeout.
import { APICallError, type LanguageModelV3, type LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { AppError } from "@/lib/api/errors";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";
import { PushGeneration } from "@/lib/models/generation/generation";
import type { ToolCallDelta } from "@/lib/models/generation/tools";
import { estimatePromptTokens, estimateTokens } from "@/lib/models/upstream/estimate-tokens";
import { upstreamNetworkError, upstreamStatusError, upstreamTimeout } from "@/lib/models/upstream/errors";
import type {
  EmbeddingResult,
  FinishReason,
  Generation,
  GenerationInput,
  ModelBackend,
  SamplingParams,
} from "@/lib/models/types";

/** A provider tool's call in the caller's terms: one or more function calls (`computer` actions, for instance). */
export interface TranslatedCall {
  id: string;
  name: string;
  arguments: string;
}

/** What a provider backend prepares for one generation. */
export interface ProviderCall {
  options: Omit<LanguageModelV3CallOptions, "abortSignal">;
  /**
   * Calls of the provider's own tools (Claude's computer tool, by name), translated once whole into the caller's calls.
   */
  translate?: { tools: ReadonlySet<string>; calls(toolCallId: string, input: string): TranslatedCall[] };
}

export interface SdkBackendConfig {
  kind: "anthropic" | "google";
  id: string;
  timeoutMs: number;
  url: string;
  model: LanguageModelV3;
  prepare(input: Extract<GenerationInput, { kind: "chat" }>, params: SamplingParams): ProviderCall;
}

const REASONS: Record<string, FinishReason> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
};

/** A provider's usage, or undefined where it reported none. */
const tokens = (usage: { inputTokens: { total?: number }; outputTokens: { total?: number } } | undefined) => ({
  input: usage?.inputTokens.total,
  output: usage?.outputTokens.total,
});

/** Collects tool calls (streamed or whole) into OpenAI's deltas, indexed in order of appearance. */
class ToolCallSink {
  private readonly indexOf = new Map<string, number>();
  private readonly argued = new Set<string>();
  private next = 0;
  readonly texts: string[] = [];

  constructor(
    private readonly generation: PushGeneration,
    private readonly call: ProviderCall,
  ) {}

  private translated(name: string) {
    return this.call.translate?.tools.has(name) === true;
  }

  start(id: string, name: string) {
    if (this.translated(name)) return;
    const index = this.next++;
    this.indexOf.set(id, index);
    this.push([{ index, id, type: "function", function: { name, arguments: "" } }], name);
  }

  delta(id: string, fragment: string) {
    const index = this.indexOf.get(id);
    if (index === undefined || !fragment) return;
    this.argued.add(id);
    this.push([{ index, function: { arguments: fragment } }], fragment);
  }

  whole(id: string, name: string, input: string) {
    if (this.translated(name)) {
      for (const call of this.call.translate!.calls(id, input))
        this.push(
          [
            {
              index: this.next++,
              id: call.id,
              type: "function",
              function: { name: call.name, arguments: call.arguments },
            },
          ],
          call.name + call.arguments,
        );
      return;
    }
    if (!this.indexOf.has(id)) this.start(id, name);
    if (!this.argued.has(id)) this.delta(id, input || "{}");
  }

  private push(deltas: ToolCallDelta[], text: string) {
    this.texts.push(text);
    this.generation.pushToolCalls(deltas);
  }
}

export class SdkBackend implements ModelBackend {
  readonly kind: "anthropic" | "google";

  constructor(private readonly config: SdkBackendConfig) {
    this.kind = config.kind;
  }

  health() {
    return { ok: true, upstream: new URL(this.config.url).host };
  }

  async embed(_inputs: string[], _signal: RequestSignal): Promise<EmbeddingResult> {
    throw new AppError("invalid_request", `The model '${this.config.id}' does not serve embeddings.`, {
      param: "model",
      detail: "unsupported_capability",
    });
  }

  /** The provider's failure in Cabin's terms: its status and message kept. */
  private failure(err: unknown, timedOut: boolean, signal: RequestSignal): unknown {
    if (err instanceof AppError) return err;
    if (timedOut) return upstreamTimeout(this.config.id, this.config.timeoutMs);
    if (signal.aborted) return signal.reason;
    if (APICallError.isInstance(err) && err.statusCode) {
      return upstreamStatusError(
        err.statusCode,
        { message: err.message },
        this.config.id,
        err.responseHeaders?.["retry-after"],
      );
    }
    return upstreamNetworkError(this.config.id, err);
  }

  async generate(input: GenerationInput, params: SamplingParams, signal: RequestSignal): Promise<Generation> {
    if (input.kind !== "chat") {
      throw new AppError(
        "invalid_request",
        `The model '${this.config.id}' (${this.kind} backend) serves chat completions only; use /v1/chat/completions.`,
        { param: "model", detail: "unsupported_endpoint" },
      );
    }
    const call = this.config.prepare(input, params);
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.config.timeoutMs);
    const onAbort = () => abort.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    const options = { ...call.options, abortSignal: abort.signal };
    try {
      if (!params.stream) {
        const result = await this.config.model.doGenerate(options);
        done();
        const generation = new PushGeneration(0, () => {});
        const sink = new ToolCallSink(generation, call);
        const texts: string[] = [];
        for (const part of result.content) {
          if (part.type === "text") {
            texts.push(part.text);
            generation.push(part.text);
          } else if (part.type === "tool-call" && !part.providerExecuted) {
            sink.whole(part.toolCallId, part.toolName, part.input);
          }
        }
        const usage = tokens(result.usage);
        generation.promptTokens = usage.input ?? (await estimatePromptTokens(input));
        generation.completionTokens = usage.output ?? (await estimateTokens([...texts, ...sink.texts]));
        generation.finish(REASONS[result.finishReason.unified] ?? "stop");
        return generation;
      }
      const { stream } = await this.config.model.doStream(options);
      const generation = new PushGeneration(0, () => abort.abort());
      void this.relay(stream, generation, call, input, timer, () => timedOut, signal).finally(done);
      return generation;
    } catch (err) {
      done();
      throw this.failure(err, timedOut, signal);
    }
  }

  private async relay(
    stream: Awaited<ReturnType<LanguageModelV3["doStream"]>>["stream"],
    generation: PushGeneration,
    call: ProviderCall,
    input: GenerationInput,
    timer: NodeJS.Timeout,
    timedOut: () => boolean,
    signal: RequestSignal,
  ) {
    const sink = new ToolCallSink(generation, call);
    const texts: string[] = [];
    let usage: ReturnType<typeof tokens> = { input: undefined, output: undefined };
    let finish: FinishReason = "stop";
    const count = async () => {
      generation.promptTokens = usage.input ?? (await estimatePromptTokens(input).catch(() => 0));
      generation.completionTokens = usage.output ?? (await estimateTokens([...texts, ...sink.texts]).catch(() => 0));
    };
    const reader = stream.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        const part = next.value;
        timer.refresh();
        switch (part.type) {
          case "text-delta":
            if (part.delta) {
              texts.push(part.delta);
              generation.push(part.delta);
            }
            break;
          case "tool-input-start":
            if (!part.providerExecuted) sink.start(part.id, part.toolName);
            break;
          case "tool-input-delta":
            sink.delta(part.id, part.delta);
            break;
          case "tool-call":
            if (!part.providerExecuted) sink.whole(part.toolCallId, part.toolName, part.input);
            break;
          case "finish":
            usage = tokens(part.usage);
            finish = REASONS[part.finishReason.unified] ?? "stop";
            break;
          case "error":
            throw new AppError(
              "upstream_error",
              `The upstream for ${this.config.id} failed: ${errorText(part.error)}`,
              {
                detail: "upstream_error",
              },
            );
        }
      }
      await count();
      generation.finish(finish);
    } catch (err) {
      // Usage so far still counts: the client received (and is billed for) these tokens.
      await count();
      void reader.cancel().catch(() => {});
      if (signal.aborted && !timedOut()) generation.finish(undefined);
      else generation.fail(this.failure(err, timedOut(), signal));
    }
  }
}

/** A stream's in-band error (Anthropic's `{type: "error", error: {type, message}}` event) as text. */
function errorText(error: unknown): string {
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  return typeof error === "string" ? error : JSON.stringify(error);
}
