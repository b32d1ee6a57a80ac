// The local backend: node-llama-cpp in process. Requests wait in the model's
// bounded queue, then run on a fresh context sequence (no prefix reuse, so a
// temperature-0 answer is the same every time). Token counts come from the
// model's own tokenizer: the rendered prompt (special tokens and BOS included)
// and every sampled token.
import type { ChatHistoryItem, Token } from "node-llama-cpp";
import { AppError } from "@/lib/api/errors";
import { getLogger } from "@/lib/logger";
import { PushGeneration } from "@/lib/models/generation";
import { runtimeEntry, type LoadedModel, type LocalModelSpec, type RuntimeEntry } from "@/lib/models/local/runtime";
import type { ChatMessage, EmbeddingResult, FinishReason, Generation, GenerationInput, ModelBackend, SamplingParams } from "@/lib/models/types";

function toHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m) =>
    m.role === "system" ? { type: "system", text: m.content }
    : m.role === "user" ? { type: "user", text: m.content }
    : { type: "model", response: [m.content] },
  );
  // An empty model turn at the end asks for a new reply (never continues the last one).
  history.push({ type: "model", response: [] });
  return history;
}

function finishReasonOf(stopReason: string): FinishReason | undefined {
  if (stopReason === "maxTokens") return "length";
  if (stopReason === "abort") return undefined;
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

  async generate(input: GenerationInput, params: SamplingParams, signal: AbortSignal): Promise<Generation> {
    const release = await this.entry.queue.acquire(signal);
    try {
      const loaded = await this.loaded();
      const run = input.kind === "chat" ? this.prepareChat(loaded, input.messages) : this.prepareCompletion(loaded, input.prompt);
      const room = loaded.contextSize - run.promptTokens;
      if (room <= 0) throw contextTooLong(run.promptTokens, loaded.contextSize, input.kind === "chat" ? "messages" : "prompt");
      const maxTokens = Math.min(params.maxTokens ?? room, room);

      const stop = new AbortController();
      const onClientAbort = () => stop.abort();
      signal.addEventListener("abort", onClientAbort, { once: true });
      const generation = new PushGeneration(run.promptTokens, () => stop.abort());
      const sequence = loaded.context.getSequence();
      const options = {
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
        .start(sequence, options)
        .then((stopReason) => generation.finish(finishReasonOf(stopReason)))
        .catch((err) => {
          if (stop.signal.aborted) return generation.finish(undefined);
          getLogger().error({ err, model: this.entry.spec.label }, "local generation failed");
          generation.fail(new AppError("internal", "The model failed while generating", { detail: "generation_failed", cause: err }));
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

  private prepareChat(loaded: LoadedModel, messages: ChatMessage[]) {
    const history = toHistory(messages);
    const promptTokens = loaded.chatWrapper
      .generateContextState({ chatHistory: history })
      .contextText.tokenize(loaded.model.tokenizer).length;
    return {
      promptTokens,
      async start(sequence: ReturnType<LoadedModel["context"]["getSequence"]>, options: GenerateOptions) {
        const { LlamaChat } = await import("node-llama-cpp");
        const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: loaded.chatWrapper });
        try {
          const result = await chat.generateResponse(history, options);
          return result.metadata.stopReason as string;
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
      async start(sequence: ReturnType<LoadedModel["context"]["getSequence"]>, options: GenerateOptions) {
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

  async embed(inputs: string[], signal: AbortSignal): Promise<EmbeddingResult> {
    const release = await this.entry.queue.acquire(signal);
    try {
      const loaded = await this.loaded();
      const context = await loaded.embeddingContext();
      const vectors: number[][] = [];
      let promptTokens = 0;
      for (const [i, text] of inputs.entries()) {
        if (signal.aborted) throw signal.reason;
        const length = context.calculateInputLength(text);
        if (length > loaded.contextSize) throw contextTooLong(length, loaded.contextSize, inputs.length > 1 ? `input[${i}]` : "input");
        promptTokens += length;
        vectors.push(normalize((await context.getEmbeddingFor(text)).vector));
      }
      return { vectors, promptTokens };
    } finally {
      release();
    }
  }
}

interface GenerateOptions {
  maxTokens: number;
  temperature: number;
  topP?: number;
  seed?: number;
  customStopTriggers?: string[];
  signal: AbortSignal;
  stopOnAbortSignal: boolean;
  onTextChunk: (text: string) => void;
  onToken: (tokens: Token[]) => void;
}

/** Unit length, like the embeddings of hosted providers, so a dot product is the cosine. */
function normalize(vector: readonly number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((x) => x / norm);
}
