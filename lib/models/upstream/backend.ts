// The openai-compatible backend: forwards to an upstream /v1 (vLLM, llama.cpp
// server, Ollama, a hosted provider, another Cabin). Streams are relayed chunk
// by chunk as they arrive; usage comes from the upstream (asked for with
// include_usage), else is estimated with gpt-tokenizer. Every wait on the
// upstream is bounded by the configured timeout. A chat request is forwarded
// as the client sent it (tools, images, response_format, penalties: only
// `model` and the usage request change), and tool calls come back as sent.
import { urlToHttpOptions } from "node:url";
import { AppError } from "@/lib/api/errors";
import { readSseData } from "@/lib/api/sse-reader";
import type { UpstreamBackendConfig } from "@/lib/models/config";
import { PushGeneration } from "@/lib/models/generation/generation";
import { estimatePromptTokens, estimateTokens } from "@/lib/models/upstream/estimate-tokens";
import { upstreamHttpError, upstreamNetworkError, upstreamTimeout } from "@/lib/models/upstream/errors";
import { postJson, type UpstreamTarget } from "@/lib/models/upstream/http-client";
import type { ToolCall, ToolCallDelta } from "@/lib/models/generation/tools";
import type {
  EmbeddingResult,
  FinishReason,
  ForwardedCall,
  Generation,
  GenerationInput,
  ModelBackend,
  SamplingParams,
} from "@/lib/models/types";
import { CancelSignal, type RequestSignal } from "@/lib/models/gateway/request-signal";

interface UpstreamUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

interface UpstreamChoice {
  text?: string;
  message?: { content?: string | null; tool_calls?: ToolCall[] | null };
  delta?: { content?: string | null; tool_calls?: ToolCallDelta[] | null };
  finish_reason?: string | null;
}

interface UpstreamBody {
  choices?: UpstreamChoice[];
  usage?: UpstreamUsage | null;
  error?: { message?: string };
}

const PASSED_REASONS = new Set<string>(["stop", "length", "tool_calls", "content_filter"]);

const finishReasonOf = (value: string | null | undefined): FinishReason | undefined =>
  value ? (PASSED_REASONS.has(value) ? (value as FinishReason) : "stop") : undefined;

/** Arguments are billed output too when the upstream gives no usage. */
const toolCallTexts = (calls: readonly (ToolCall | ToolCallDelta)[] | null | undefined) =>
  (calls ?? []).map((c) => `${c.function?.name ?? ""}${c.function?.arguments ?? ""}`);

export class UpstreamBackend implements ModelBackend {
  readonly kind = "openai-compatible" as const;

  /** Parsed into request options once: URL parsing is a measurable share of a ~1 ms gateway budget. */
  private readonly targets = new Map<string, UpstreamTarget>();

  constructor(private readonly config: UpstreamBackendConfig) {}

  /** Not probed (that would cost the upstream a call per health check): its failures show as 502/504. */
  health() {
    return { ok: true, upstream: new URL(this.config.url).host };
  }

  private targetFor(path: string): UpstreamTarget {
    let target = this.targets.get(path);
    if (!target) this.targets.set(path, (target = urlToHttpOptions(new URL(`${this.config.url}${path}`))));
    return target;
  }

  /** POSTs to the upstream with a deadline for the response headers; aborts with the client. */
  private async post(path: string, body: unknown, signal: RequestSignal, stream: boolean) {
    const cancel = new CancelSignal();
    const onAbort = () => cancel.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      cancel.abort();
    }, this.config.timeoutMs);
    const headers: Record<string, string> = { accept: stream ? "text/event-stream" : "application/json" };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    try {
      const res = await postJson(this.targetFor(path), body, headers, cancel);
      if (res.status < 200 || res.status >= 300) throw await upstreamHttpError(res, this.config.id);
      return { res, cancel, timer, done: () => signal.removeEventListener("abort", onAbort), timedOut: () => timedOut };
    } catch (err) {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (err instanceof AppError) throw err;
      if (timedOut) throw upstreamTimeout(this.config.id, this.config.timeoutMs);
      if (signal.aborted) throw signal.reason;
      throw upstreamNetworkError(this.config.id, err);
    }
  }

  async forward(
    path: string,
    body: Record<string, unknown>,
    signal: RequestSignal,
    stream: boolean,
  ): Promise<ForwardedCall> {
    const call = await this.post(path, { ...body, model: this.config.upstreamModel }, signal, stream);
    return {
      res: call.res,
      refresh: () => call.timer.refresh(),
      timedOut: call.timedOut,
      timeoutMs: this.config.timeoutMs,
      abort: () => call.cancel.abort(),
      close: () => {
        clearTimeout(call.timer);
        call.done();
      },
    };
  }

  async generate(input: GenerationInput, params: SamplingParams, signal: RequestSignal): Promise<Generation> {
    const path = input.kind === "chat" ? "/chat/completions" : "/completions";
    const streamOptions = params.stream ? { include_usage: true } : undefined;
    const body =
      input.kind === "chat"
        ? {
            ...input.request,
            model: this.config.upstreamModel,
            stream_options: streamOptions && { ...input.request.stream_options, ...streamOptions },
          }
        : {
            model: this.config.upstreamModel,
            prompt: input.prompt,
            temperature: params.temperature,
            top_p: params.topP,
            seed: params.seed,
            max_tokens: params.maxTokens,
            stop: params.stop.length ? params.stop : undefined,
            presence_penalty: params.presencePenalty,
            frequency_penalty: params.frequencyPenalty,
            logit_bias: params.logitBias,
            stream: params.stream,
            stream_options: streamOptions,
          };
    const call = await this.post(path, body, signal, params.stream);

    if (!params.stream) {
      try {
        const json = JSON.parse(await call.res.text()) as UpstreamBody;
        const choice = json.choices?.[0];
        const text = (input.kind === "chat" ? choice?.message?.content : choice?.text) ?? "";
        const toolCalls = (input.kind === "chat" && choice?.message?.tool_calls) || [];
        const generation = new PushGeneration(
          json.usage?.prompt_tokens ?? (await estimatePromptTokens(input)),
          () => {},
        );
        generation.completionTokens =
          json.usage?.completion_tokens ?? (await estimateTokens([text, ...toolCallTexts(toolCalls)]));
        generation.push(text);
        generation.pushToolCalls(toolCalls.map((call, index) => ({ index, ...call })));
        generation.finish(finishReasonOf(choice?.finish_reason) ?? "stop");
        return generation;
      } catch (err) {
        if (call.timedOut()) throw upstreamTimeout(this.config.id, this.config.timeoutMs);
        throw upstreamNetworkError(this.config.id, err);
      } finally {
        clearTimeout(call.timer);
        call.done();
      }
    }

    const generation = new PushGeneration(0, () => call.cancel.abort());
    void this.relay(call, input, generation);
    return generation;
  }

  /**
   * Reads the upstream stream into the generation; each SSE event becomes one
   * delta. After `[DONE]` the rest of the body is drained, not cut, so the
   * connection goes back to the keep-alive pool.
   */
  private async relay(
    call: Awaited<ReturnType<UpstreamBackend["post"]>>,
    input: GenerationInput,
    generation: PushGeneration,
  ) {
    const { res, cancel, timer } = call;
    let usage: UpstreamUsage | undefined;
    let finish: FinishReason | undefined;
    let ended = false;
    const texts: string[] = [];
    const end = async () => {
      if (ended) return;
      generation.promptTokens = usage?.prompt_tokens ?? (await estimatePromptTokens(input));
      generation.completionTokens = usage?.completion_tokens ?? (await estimateTokens(texts));
      generation.finish(finish ?? "stop");
      ended = true;
    };
    try {
      for await (const data of readSseData(res.body)) {
        timer.refresh();
        if (ended) continue;
        if (data === "[DONE]") {
          await end();
          continue;
        }
        const chunk = JSON.parse(data) as UpstreamBody;
        if (chunk.error)
          throw new AppError(
            "upstream_error",
            `Upstream model server failed: ${chunk.error.message ?? "unknown error"}`,
          );
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices?.[0];
        const text = input.kind === "chat" ? choice?.delta?.content : choice?.text;
        if (text) {
          texts.push(text);
          generation.push(text);
        }
        const toolCalls = input.kind === "chat" ? choice?.delta?.tool_calls : undefined;
        if (toolCalls?.length) {
          texts.push(...toolCallTexts(toolCalls));
          generation.pushToolCalls(toolCalls);
        }
        finish = finishReasonOf(choice?.finish_reason) ?? finish;
      }
      await end();
    } catch (err) {
      // A failure while draining after [DONE] changes nothing the client got.
      if (ended) return;
      // Usage so far still counts: the client received (and is billed for) these tokens.
      generation.promptTokens = usage?.prompt_tokens ?? (await estimatePromptTokens(input).catch(() => 0));
      generation.completionTokens = await estimateTokens(texts).catch(() => 0);
      if (cancel.aborted && !call.timedOut()) generation.finish(undefined);
      else if (call.timedOut()) generation.fail(upstreamTimeout(this.config.id, this.config.timeoutMs));
      else generation.fail(err instanceof AppError ? err : upstreamNetworkError(this.config.id, err));
    } finally {
      clearTimeout(timer);
      call.done();
    }
  }

  async embed(inputs: string[], signal: RequestSignal): Promise<EmbeddingResult> {
    const call = await this.post(
      "/embeddings",
      { model: this.config.upstreamModel, input: inputs, encoding_format: "float" },
      signal,
      false,
    );
    try {
      const json = JSON.parse(await call.res.text()) as {
        data?: { index?: number; embedding?: number[] }[];
        usage?: UpstreamUsage;
      };
      const rows = [...(json.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (rows.length !== inputs.length || rows.some((r) => !Array.isArray(r.embedding))) {
        throw new AppError(
          "upstream_error",
          `Upstream for ${this.config.id} returned ${rows.length} embeddings for ${inputs.length} inputs`,
        );
      }
      return {
        vectors: rows.map((r) => r.embedding!),
        promptTokens: json.usage?.prompt_tokens ?? (await estimateTokens(inputs)),
      };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (call.timedOut()) throw upstreamTimeout(this.config.id, this.config.timeoutMs);
      throw upstreamNetworkError(this.config.id, err);
    } finally {
      clearTimeout(call.timer);
      call.done();
    }
  }
}
