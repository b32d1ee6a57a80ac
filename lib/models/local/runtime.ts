// The one owner of node-llama-cpp in this process: the Llama binding, each
// loaded GGUF with its context, chat wrapper and queue. A process-wide singleton
// (`singleton`), so a dev reload never loads a model twice. Model ids with the same file and
// settings share one entry (both default ids use the same placeholder model).
import type { ChatWrapper, Llama, LlamaContext, LlamaEmbeddingContext, LlamaModel, TokenBias } from "node-llama-cpp";
import { getLogger } from "@/lib/logger";
import { BoundedQueue } from "@/lib/models/limits/queue";
import { singleton, singletonKey } from "@/lib/singleton";

export interface LocalModelSpec {
  key: string;
  label: string;
  /** Resolves the GGUF path (the placeholder is generated on first use). */
  path: () => Promise<string>;
  embeddingPath?: string;
  contextSize: number;
  threads: number;
  parallel: number;
  queueSize: number;
}

export interface LoadedModel {
  model: LlamaModel;
  context: LlamaContext;
  chatWrapper: ChatWrapper;
  contextSize: number;
  /** Token ids run from 0 to this (exclusive): what logit_bias keys may name. */
  vocabularySize: number;
  newTokenBias(): TokenBias;
  embeddingContext(): Promise<LlamaEmbeddingContext>;
}

export interface RuntimeEntry {
  spec: LocalModelSpec;
  queue: BoundedQueue;
  load(): Promise<LoadedModel>;
  /** For health: where loading stands, and the queue. */
  status(): { state: "not loaded" | "loading" | "ready" | "failed"; error?: string; running: number; waiting: number };
}

interface RuntimeState {
  llama?: Promise<Llama>;
  maxThreads: number;
  entries: Map<string, RuntimeEntry>;
}

const state = singleton(
  singletonKey<RuntimeState>("models.llamaRuntime"),
  (): RuntimeState => ({ maxThreads: 1, entries: new Map() }),
);

function getLlamaBinding(threads: number): Promise<Llama> {
  state.maxThreads = Math.max(state.maxThreads, threads);
  state.llama ??= import("node-llama-cpp").then(({ getLlama, LlamaLogLevel }) =>
    getLlama({
      // CPU only, prebuilt binaries only: a GPU probe or a source build would
      // download and compile at first request.
      gpu: false,
      build: "never",
      maxThreads: state.maxThreads,
      logLevel: LlamaLogLevel.warn,
      logger: (level, message) => {
        const text = message.trim();
        if (text) getLogger().debug({ part: "llama.cpp", level }, text);
      },
    }),
  );
  state.llama.catch(() => (state.llama = undefined));
  return state.llama;
}

async function loadModel(spec: LocalModelSpec): Promise<LoadedModel> {
  const started = performance.now();
  const { resolveChatWrapper, TokenBias } = await import("node-llama-cpp");
  const llama = await getLlamaBinding(spec.threads);
  const modelPath = await spec.path();
  const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  const context = await model.createContext({
    contextSize: Math.min(spec.contextSize, model.trainContextSize),
    sequences: spec.parallel,
    threads: spec.threads,
  });
  // Resolving the template costs ~300 ms (Jinja matching): once per model, never per request.
  const chatWrapper = resolveChatWrapper(model);
  if (!chatWrapper) throw new Error(`no chat template could be resolved for ${modelPath}`);

  let embedding: Promise<LlamaEmbeddingContext> | undefined;
  const embeddingContext = () => {
    embedding ??= (async () => {
      const source = spec.embeddingPath
        ? await llama.loadModel({ modelPath: spec.embeddingPath, gpuLayers: 0 })
        : model;
      return source.createEmbeddingContext({
        contextSize: Math.min(spec.contextSize, source.trainContextSize),
        threads: spec.threads,
      });
    })();
    embedding.catch(() => (embedding = undefined));
    return embedding;
  };

  getLogger().info(
    {
      part: "models",
      model: spec.label,
      path: modelPath,
      contextSize: context.contextSize,
      threads: spec.threads,
      parallel: spec.parallel,
      chatWrapper: chatWrapper.wrapperName,
      ms: Math.round(performance.now() - started),
    },
    "local model loaded",
  );
  const vocabularySize = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
  const newTokenBias = () => new TokenBias(model.tokenizer);
  return {
    model,
    context,
    chatWrapper,
    contextSize: context.contextSize,
    vocabularySize,
    newTokenBias,
    embeddingContext,
  };
}

/** The shared entry for a spec; loading starts on the first `load()`. */
export function runtimeEntry(spec: LocalModelSpec): RuntimeEntry {
  const existing = state.entries.get(spec.key);
  if (existing) return existing;
  let loading: Promise<LoadedModel> | undefined;
  let ready = false;
  let lastError: string | undefined;
  const entry: RuntimeEntry = {
    spec,
    queue: new BoundedQueue(spec.label, spec.parallel, spec.queueSize),
    load() {
      if (!loading) {
        loading = loadModel(spec);
        loading.then(
          () => ((ready = true), (lastError = undefined)),
          // A failed load is retried by the next request rather than cached forever.
          (err: unknown) => ((loading = undefined), (lastError = err instanceof Error ? err.message : String(err))),
        );
      }
      return loading;
    },
    status() {
      const state = ready ? "ready" : loading ? "loading" : lastError ? "failed" : "not loaded";
      return { state, ...(lastError && !ready ? { error: lastError } : {}), ...entry.queue.stats };
    },
  };
  state.entries.set(spec.key, entry);
  return entry;
}

/** Frees every context, model and the binding (shutdown). */
export async function disposeLocalRuntime(): Promise<void> {
  const llama = state.llama;
  state.entries.clear();
  state.llama = undefined;
  if (llama) await (await llama).dispose();
}
