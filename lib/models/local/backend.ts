// The local backend: node-llama-cpp in process. Requests wait in the model's
// bounded queue, then run on a fresh context sequence (no prefix reuse, so a
// temperature-0 answer is the same every time). Token counts come from the
// model's own tokenizer: the rendered prompt (special tokens and BOS included)
// and every sampled token.
import type { Token } from "node-llama-cpp";
import { AppError } from "@/lib/api/errors";
import { getLogger } from "@/lib/logger";
import { PushGeneration } from "@/lib/models/generation/generation";
import { prepareLocalChat, type ChatRunOptions } from "@/lib/models/local/chat-run";
import { answerBudget, fitConversation, roomWanted } from "@/lib/models/local/context-fit";
import { runtimeEntry, type LoadedModel, type LocalModelSpec, type RuntimeEntry } from "@/lib/models/local/runtime";
import type { ChatOptions } from "@/lib/models/generation/tools";
import type {
  ChatMessage,
  EmbeddingResult,
  FinishReason,
  Generation,
  GenerationInput,
  ModelBackend,
  SamplingParams,
} from "@/lib/models/types";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

function finishReasonOf(stopReason: string): FinishReason | undefined {
  if (stopReason === "maxTokens") return "length";
  if (stopReason === "abort") return undefined;
  if (stopReason === "toolCalls") return "tool_calls";
  return "stop";
}

function contextTooLong(promptTokens: number, contextSize: number, param: string) {
  return new AppError(
    "invalid_request",
    `This model's context is ${contextSize} tokens; the input has ${promptTokens} tokens, leaving no room to generate.`,
    { param, detail: "context_length_exceeded" },
  );
}

export class LocalBackend implements ModelBackend {
  readonly kind = "local" as const;
  private readonly entry: RuntimeEntry;

  constructor(spec: LocalModelSpec) {
    this.entry = runtimeEntry(spec);
  }

  async warmUp() {
    await this.entry.load();
  }

  health() {
    const status = this.entry.status();
    return { ok: status.state !== "failed", ...status };
  }

  private async loaded(): Promise<LoadedModel> {
    try {
      return await this.entry.load();
    } catch (err) {
      getLogger().error({ err, model: this.entry.spec.label }, "local model failed to load");
      throw new AppError("internal", `Model ${this.entry.spec.label} could not be loaded; see the server log.`, {
        detail: "model_load_failed",
        cause: err,
      });
    }
  }

  async generate(input: GenerationInput, params: SamplingParams, signal: RequestSignal): Promise<Generation> {
    const release = await this.entry.queue.acquire(signal);
    try {
      const loaded = await this.loaded();
      // A short default answer, and a conversation trimmed to make room for it (context-fit.ts).
      const budget = answerBudget(params.maxTokens);
      const run =
        input.kind === "chat"
          ? fitConversation(input.messages, loaded.contextSize, roomWanted(budget, loaded.contextSize), (messages) =>
              this.prepareChat(loaded, messages, input.options),
            ).run
          : this.prepareCompletion(loaded, input.prompt);
      const room = loaded.contextSize - run.promptTokens;
      if (room <= 0)
        throw contextTooLong(run.promptTokens, loaded.contextSize, input.kind === "chat" ? "messages" : "prompt");
      const maxTokens = Math.min(budget, room);
      // Checked before a sequence is taken: a refusal must leave nothing held.
      const extras = samplingExtras(loaded, params);

      const stop = new AbortController();
      const onClientAbort = () => stop.abort();
      signal.addEventListener("abort", onClientAbort, { once: true });
      const generation = new PushGeneration(run.promptTokens, () => stop.abort());
      const sequence = loaded.context.getSequence();
      const options: GenerateOptions = {
        ...extras,
        maxTokens,
        temperature: params.temperature,
        topP: params.topP,
        seed: params.seed,
        customStopTriggers: params.stop.length ? params.stop : undefined,
        signal: stop.signal,
        stopOnAbortSignal: true,
        onTextChunk: (text: string) => generation.push(text),
        onToken: (tokens: Token[]) => {
          generation.completionTokens += tokens.length;
        },
      };
      run
        .start(sequence, options, generation)
        .then((stopReason) => generation.finish(finishReasonOf(stopReason)))
        .catch((err) => {
          if (stop.signal.aborted) return generation.finish(undefined);
          getLogger().error({ err, model: this.entry.spec.label }, "local generation failed");
          generation.fail(
            new AppError("internal", "The model failed while generating", { detail: "generation_failed", cause: err }),
          );
        })
        .finally(() => {
          signal.removeEventListener("abort", onClientAbort);
          sequence.dispose();
          release();
        });
      return generation;
    } catch (err) {
      release();
      throw err;
    }
  }

  private prepareChat(loaded: LoadedModel, messages: ChatMessage[], chatOptions: ChatOptions) {
    const run = prepareLocalChat(loaded, messages, chatOptions);
    return {
      promptTokens: run.promptTokens,
      async start(
        sequence: ReturnType<LoadedModel["context"]["getSequence"]>,
        options: GenerateOptions,
        generation: PushGeneration,
      ) {
        const { LlamaChat } = await import("node-llama-cpp");
        const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: loaded.chatWrapper });
        try {
          return await run.start(chat, options, generation);
        } finally {
          chat.dispose({ disposeSequence: false });
        }
      },
    };
  }

  private prepareCompletion(loaded: LoadedModel, prompt: string) {
    const { model } = loaded;
    // Exactly what LlamaCompletion feeds the model: BOS (when the model wants it) + the prompt.
    const bos = model.tokens.shouldPrependBosToken && model.tokens.bos != null ? 1 : 0;
    const tokens = model.tokenize(prompt, false, bos ? "trimLeadingSpace" : undefined);
    return {
      promptTokens: tokens.length + bos,
      async start(
        sequence: ReturnType<LoadedModel["context"]["getSequence"]>,
        options: GenerateOptions,
        _generation: PushGeneration,
      ) {
        const { LlamaCompletion } = await import("node-llama-cpp");
        const completion = new LlamaCompletion({ contextSequence: sequence });
        try {
          const result = await completion.generateCompletionWithMeta(tokens, { ...options, disableContextShift: true });
          return result.metadata.stopReason as string;
        } finally {
          completion.dispose({ disposeSequence: false });
        }
      },
    };
  }

  async embed(inputs: string[], signal: RequestSignal): Promise<EmbeddingResult> {
    const release = await this.entry.queue.acquire(signal);
    try {
      const loaded = await this.loaded();
      const context = await loaded.embeddingContext();
      const vectors: number[][] = [];
      let promptTokens = 0;
      for (const [i, text] of inputs.entries()) {
        if (signal.aborted) throw signal.reason;
        const length = context.calculateInputLength(text);
        if (length > loaded.contextSize)
          throw contextTooLong(length, loaded.contextSize, inputs.length > 1 ? `input[${i}]` : "input");
        promptTokens += length;
        vectors.push(normalize((await context.getEmbeddingFor(text)).vector));
      }
      return { vectors, promptTokens };
    } finally {
      release();
    }
  }
}

type GenerateOptions = ChatRunOptions;

/**
 * presence/frequency penalties use llama.cpp's formula, the same as OpenAI's
 * (logit - count * frequency - presence), so the values pass as they are;
 * logit_bias keys are token ids of this model's own vocabulary.
 */
function samplingExtras(
  loaded: LoadedModel,
  params: SamplingParams,
): Pick<GenerateOptions, "repeatPenalty" | "tokenBias"> {
  const extras: Pick<GenerateOptions, "repeatPenalty" | "tokenBias"> = {};
  if (params.presencePenalty !== undefined || params.frequencyPenalty !== undefined) {
    extras.repeatPenalty = { presencePenalty: params.presencePenalty, frequencyPenalty: params.frequencyPenalty };
  }
  const bias = params.logitBias;
  if (bias && Object.keys(bias).length) {
    const vocabulary = loaded.vocabularySize;
    for (const id of Object.keys(bias)) {
      if (Number(id) >= vocabulary) {
        throw new AppError(
          "invalid_request",
          `logit_bias: token ${id} is not in this model's vocabulary (${vocabulary} tokens)`,
          { param: "logit_bias", detail: "invalid_request" },
        );
      }
    }
    extras.tokenBias = () => {
      const tokenBias = loaded.newTokenBias();
      for (const [id, value] of Object.entries(bias)) tokenBias.set(Number(id) as Token, { logit: value });
      return tokenBias;
    };
  }
  return extras;
}

/** Unit length, like the embeddings of hosted providers, so a dot product is the cosine. */
function normalize(vector: readonly number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((x) => x / norm);
}
