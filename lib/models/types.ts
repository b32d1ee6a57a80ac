// The shapes every backend speaks. Routes and the wire encoder only see these;
// which backend serves a model id is configuration (lib/models/config.ts).

import type { BackendKind, Capabilities } from "@/lib/models/generation/capabilities";
import type { ChatCompletionRequest } from "@/lib/models/gateway/schemas";
import type { ChatOptions, ToolCall, ToolCallDelta } from "@/lib/models/generation/tools";
import type { UpstreamResponse } from "@/lib/models/upstream/http-client";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";
import type { InputItem, ResponsesCreateRequest } from "@/lib/models/responses/schema";

/** "content_filter" only ever comes from an upstream, passed through. */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** Assistant turns that called tools. */
  toolCalls?: ToolCall[];
  /** Tool turns: the call this is the result of. */
  toolCallId?: string;
}

export type GenerationInput =
  /** `request` is the validated body as sent: upstreams forward it; the local model reads `messages` and `options`. */
  | {
      kind: "chat";
      messages: ChatMessage[];
      options: ChatOptions;
      request: ChatCompletionRequest;
      /**
       * Set when the chat request was translated from a /v1/responses request: a backend with a
       * native computer tool (Claude's) answers from these items instead (lib/models/responses/native-computer-use).
       */
      responses?: ResponsesTurn;
    }
  | { kind: "completion"; prompt: string };

/**
 * A /v1/responses request as it reached the chat path: its body and the whole conversation (chained turns included).
 */
export interface ResponsesTurn {
  body: ResponsesCreateRequest;
  items: InputItem[];
}

/** What a generation yields: answer text, or pieces of tool calls. */
export type GenerationDelta = string | { toolCalls: ToolCallDelta[] };

export interface SamplingParams {
  temperature: number;
  topP?: number;
  seed?: number;
  /** Upper bound on generated tokens; the backend also caps it by the context left. */
  maxTokens?: number;
  stop: string[];
  /** True when the client asked for a stream (upstreams are asked to stream too). */
  stream: boolean;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Token id (of the model's own tokenizer) -> bias in [-100, 100]. */
  logitBias?: Record<string, number>;
}

/**
 * A running generation: iterate it for text deltas. The counters are live, so
 * usage is known even when the client leaves half-way. Breaking out of the
 * iteration (or `cancel()`) stops the backend's work.
 */
export interface Generation extends AsyncIterable<GenerationDelta> {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Set once the generation ended normally. */
  readonly finishReason: FinishReason | undefined;
  /** Resolves once the backend has stopped working on it (its slot is free by then). */
  readonly ended: Promise<void>;
  cancel(): void;
  /**
   * Every delta at once when the generation has already ended normally and none was read; else undefined (iterate
   * instead).
   */
  settledDeltas(): GenerationDelta[] | undefined;
}

export interface EmbeddingResult {
  vectors: number[][];
  promptTokens: number;
}

export interface ModelBackend {
  readonly kind: BackendKind;
  /**
   * Starts a generation. Resolves once the request was accepted (holds a slot
   * in the local queue, or the upstream answered 200); rejects with an
   * AppError before that (queue full, prompt too long, upstream error).
   */
  generate(input: GenerationInput, params: SamplingParams, signal: RequestSignal): Promise<Generation>;
  embed(inputs: string[], signal: RequestSignal): Promise<EmbeddingResult>;
  /** Loads what the first request would otherwise wait for. */
  warmUp?(): Promise<void>;
  /** For /api/health: false only when the backend cannot serve (a local model failed to load). */
  health(): { ok: boolean; [detail: string]: unknown };
  /**
   * Upstreams only: POSTs `body` (its `model` replaced by the upstream's name) to the upstream's `path` and hands back
   * its
   * 2xx answer unread, for endpoints relayed as they are (native /v1/responses).
   * Rejects like `generate` on a non-2xx answer, a timeout or no connection.
   */
  forward?(path: string, body: Record<string, unknown>, signal: RequestSignal, stream: boolean): Promise<ForwardedCall>;
}

/** An upstream's 2xx answer being relayed; `close()` once it was read (or given up). */
export interface ForwardedCall {
  res: UpstreamResponse;
  /** Restarts the upstream timeout: call on every chunk of a stream. */
  refresh(): void;
  timedOut(): boolean;
  /** The upstream's timeout, for the 504's message. */
  timeoutMs: number;
  /** Stops the upstream's work (the client left). */
  abort(): void;
  close(): void;
}

/** One backend of a model's fallback list. */
export interface ModelBackendEntry {
  /** As in usage rows' attempts and /api/health. */
  name: string;
  backend: ModelBackend;
  /** How /v1/responses reaches it: forwarded as is ("native", upstreams only) or translated to chat. */
  responses: "native" | "translate";
  /**
   * The computer tool the agent loop offers it (MODELS `computerTool`; `computer_use` unless a native upstream says
   * otherwise).
   */
  computerTool: "computer_use" | "computer_use_preview";
}

export interface Prices {
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

export interface ModelInfo {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
  /** Cabin addition: what the model accepts (configuration, defaults by backend). */
  capabilities: Capabilities;
  /** Cabin additions: which backend serves it, and a warning when outputs are not meaningful. */
  metadata: {
    backend: ModelBackend["kind"];
    prices: Prices;
    placeholder?: boolean;
    notice?: string;
    alias_of?: string;
  };
}

export interface ResolvedModel {
  id: string;
  info: ModelInfo;
  prices: Prices;
  capabilities: Capabilities;
  /** Longest image edge the model is sent (MODELS `maxImageEdge`, lib/models/images); undefined: unbounded. */
  maxImageEdge?: number;
  /** The first backend: the one that answers when all is well. */
  backend: ModelBackend;
  /** Every backend, in the order they are tried (`withFallback`). */
  backends: ModelBackendEntry[];
}

// What lib/models/config.ts parses MODELS (and stored models) into.

export interface ModelDefaults {
  prefix: string;
  threads: number;
  contextSize: number;
  parallel: number;
  queueSize: number;
  upstreamTimeoutMs: number;
}

/** One way to serve a model: a GGUF run in process. */
export interface LocalBackendConfig {
  backend: "local";
  /** The model id it serves (messages name it). */
  id: string;
  /** Names the backend in usage rows' attempts and /api/health ("<id>#<position>" unless configured). */
  name: string;
  /** GGUF file; undefined = the generated placeholder model. */
  path?: string;
  /** GGUF file for /v1/embeddings; undefined = the chat model itself. */
  embeddingPath?: string;
  contextSize: number;
  threads: number;
  parallel: number;
  queueSize: number;
}

/** One way to serve a model: an OpenAI-compatible upstream server. */
export interface UpstreamBackendConfig {
  backend: "openai-compatible";
  id: string;
  name: string;
  /** Base URL of the upstream's OpenAI API, ending in /v1 (or its equivalent). */
  url: string;
  apiKey?: string;
  upstreamModel: string;
  timeoutMs: number;
  /** "native": /v1/responses is forwarded as is to the upstream's own /responses; "translate": via chat completions. */
  responses: "native" | "translate";
  /**
   * The computer tool the agent loop offers a native upstream: Lightcone's `computer_use` (0-1000)
   * or OpenAI's `computer_use_preview` (pixels), the one the upstream's model was trained on.
   */
  computerTool: "computer_use" | "computer_use_preview";
}

/**
 * One way to serve a model: a hosted provider reached through the AI SDK's provider package
 * (@ai-sdk/anthropic for Claude's Messages API, @ai-sdk/google for Gemini's generateContent).
 */
export interface ProviderBackendConfig {
  backend: "anthropic" | "google";
  id: string;
  name: string;
  /** Base URL of the provider's API (Anthropic's ends in /v1, Gemini's in /v1beta). */
  url: string;
  apiKey?: string;
  upstreamModel: string;
  timeoutMs: number;
}

export type BackendConfig = LocalBackendConfig | UpstreamBackendConfig | ProviderBackendConfig;

/**
 * A model id and the backends that serve it, tried in order: the next one
 * answers when one fails with a timeout, connection error, 5xx or 429
 * (`withFallback`). A single-backend entry is a list of one.
 */
export interface ModelConfig {
  id: string;
  backends: BackendConfig[];
  prices: Prices;
  capabilities: Capabilities;
  ownedBy?: string;
  /** Longest image edge the model is sent, in pixels (lib/models/images); undefined: images as they are. */
  maxImageEdge?: number;
}
