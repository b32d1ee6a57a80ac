// The model API's operations: chat completions, legacy completions and
// embeddings, from a validated body to the reply (JSON or SSE). Every
// request that reached a backend is metered (usage row + token rate limit).
import { isAppError } from "@/lib/api/errors";
import { errorBody, toAppError } from "@/lib/api/render";
import { getLogger } from "@/lib/logger";
import {
  getKeyRateLimiter,
  getRateLimiter,
  jsonReply,
  type ModelReply,
  type ModelRequest,
} from "@/lib/models/gateway/http";
import { checkChatCapabilities, checkEmbeddingCapabilities } from "@/lib/models/generation/capabilities";
import { AttemptLog, withFallback } from "@/lib/models/generation/fallback";
import { getModel } from "@/lib/models/registry";
import { inlineChatImages } from "@/lib/models/images/inline-images";
import {
  toMessages,
  toSampling,
  type ChatCompletionRequest,
  type CompletionRequest,
  type EmbeddingRequest,
} from "@/lib/models/gateway/schemas";
import { assembleToolCalls, chatOptionsOf, type ToolCallDelta } from "@/lib/models/generation/tools";
import type {
  FinishReason,
  Generation,
  GenerationDelta,
  GenerationInput,
  ResolvedModel,
  SamplingParams,
} from "@/lib/models/types";
import { recordUsage, type UsageEndpoint } from "@/lib/models/usage/usage";
import {
  ChunkEncoder,
  completionBody,
  embeddingsBody,
  newCompletionId,
  SSE_HEADERS,
  usageOf,
  type TextEndpoint,
} from "@/lib/models/gateway/wire";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

/** Status recorded when the client left before the end (nginx's "client closed request"). */
export const CLIENT_CLOSED = 499;

/**
 * The request's usage recorder. `settle.attempts` collects the backends tried
 * (hand it to `withFallback`); they are written with the row.
 */
export function meter(ctx: ModelRequest, model: ResolvedModel, endpoint: UsageEndpoint, stream: boolean) {
  const started = performance.now();
  const attempts = new AttemptLog();
  let settled = false;
  /** Records the request once; returns its cost in USD (0 when already recorded). */
  const settle = (status: number, inputTokens: number, outputTokens: number): number => {
    if (settled) return 0;
    settled = true;
    getRateLimiter().debitTokens(ctx.principal.organizationId, inputTokens + outputTokens);
    if (ctx.principal.apiKeyId) getKeyRateLimiter().debitTokens(ctx.principal.apiKeyId, inputTokens + outputTokens);
    return recordUsage({
      organizationId: ctx.principal.organizationId,
      apiKeyId: ctx.principal.apiKeyId,
      requestId: ctx.requestId,
      endpoint,
      model: model.id,
      inputTokens,
      outputTokens,
      prices: model.prices,
      latencyMs: performance.now() - started,
      status,
      stream,
      attempts: attempts.attempts,
      backend: attempts.answeredBy,
    });
  };
  return Object.assign(settle, { attempts });
}

/**
 * The request's cost, on answers that are complete when their headers leave.
 * A streamed answer's headers go out before its cost is known, so it carries
 * none: its cost is in its usage row (tokens in the final usage chunk).
 */
export function withCost(reply: ModelReply, cost: number): ModelReply {
  reply.headers["x-cabin-cost-usd"] = String(cost);
  reply.costUsd = cost;
  return reply;
}

/**
 * Reads a whole generation into `take`. A failure is recorded and rethrown; a
 * generation that ended without a reason (the client went away) is recorded and
 * answered 499 (`reply`); otherwise its finish reason, and the caller answers.
 */
export async function drain(
  generation: Generation,
  settle: ReturnType<typeof meter>,
  signal: RequestSignal,
  take: (delta: GenerationDelta) => void,
): Promise<{ reply: ModelReply } | { finishReason: FinishReason }> {
  try {
    const settled = generation.settledDeltas();
    if (settled) for (const delta of settled) take(delta);
    else for await (const delta of generation) take(delta);
  } catch (err) {
    settle(statusOf(err, signal), generation.promptTokens, generation.completionTokens);
    throw err;
  }
  if (generation.finishReason) return { finishReason: generation.finishReason };
  settle(CLIENT_CLOSED, generation.promptTokens, generation.completionTokens);
  return { reply: { status: CLIENT_CLOSED, headers: {}, body: null } };
}

export const statusOf = (err: unknown, signal: RequestSignal) =>
  signal.aborted ? CLIENT_CLOSED : isAppError(err) ? err.status : 500;

async function runText(
  ctx: ModelRequest,
  endpoint: TextEndpoint,
  model: ResolvedModel,
  input: GenerationInput,
  params: SamplingParams,
  includeUsage: boolean,
): Promise<ModelReply> {
  const settle = meter(ctx, model, endpoint, params.stream);
  let generation: Generation;
  try {
    generation = await withFallback(model, settle.attempts, ctx.signal, (entry) =>
      entry.backend.generate(input, params, ctx.signal),
    );
  } catch (err) {
    // Refusals before any work (queue full, bad input, upstream said no) cost nothing but are on record when the
    // backend failed.
    if (statusOf(err, ctx.signal) >= 500) settle(statusOf(err, ctx.signal), 0, 0);
    throw err;
  }
  const meta = { id: newCompletionId(endpoint), created: Math.floor(Date.now() / 1000), model: model.id };

  if (!params.stream) {
    const parts: string[] = [];
    const toolCallDeltas: ToolCallDelta[] = [];
    const drained = await drain(generation, settle, ctx.signal, (delta) => {
      if (typeof delta === "string") parts.push(delta);
      else toolCallDeltas.push(...delta.toolCalls);
    });
    if ("reply" in drained) return drained.reply;
    const cost = settle(200, generation.promptTokens, generation.completionTokens);
    const usage = usageOf(generation.promptTokens, generation.completionTokens);
    return withCost(
      jsonReply(
        completionBody(endpoint, meta, parts.join(""), drained.finishReason, usage, assembleToolCalls(toolCallDeltas)),
      ),
      cost,
    );
  }

  const encoder = new ChunkEncoder(endpoint, meta, includeUsage);
  const deltas = generation[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const opening = encoder.opening();
      if (opening) controller.enqueue(opening);
    },
    async pull(controller) {
      try {
        const next = await deltas.next();
        if (!next.done) {
          const delta = next.value;
          return controller.enqueue(
            typeof delta === "string" ? encoder.delta(delta) : encoder.toolCalls(delta.toolCalls),
          );
        }
        if (!generation.finishReason) {
          settle(CLIENT_CLOSED, generation.promptTokens, generation.completionTokens);
          return controller.close();
        }
        controller.enqueue(encoder.finish(generation.finishReason));
        if (includeUsage)
          controller.enqueue(encoder.usage(usageOf(generation.promptTokens, generation.completionTokens)));
        controller.enqueue(encoder.done());
        controller.close();
        settle(200, generation.promptTokens, generation.completionTokens);
      } catch (err) {
        // The 200 is already sent: report the failure in-band, as the reference API does.
        const appError = toAppError(err, ctx.requestId);
        settle(statusOf(err, ctx.signal), generation.promptTokens, generation.completionTokens);
        const envelope = errorBody(appError, "openai") as { error: { message: string; type: string; code: string } };
        controller.enqueue(encoder.error(envelope.error));
        controller.close();
      }
    },
    cancel() {
      // The client disconnected: stop generating now, so the queue frees.
      generation.cancel();
      void deltas.return?.(undefined);
      // Metered once the backend stopped, so the row counts every token it produced.
      void generation.ended.then(() => settle(CLIENT_CLOSED, generation.promptTokens, generation.completionTokens));
    },
  });
  return { status: 200, headers: { ...SSE_HEADERS }, body };
}

export async function createChatCompletion(ctx: ModelRequest, body: ChatCompletionRequest): Promise<ModelReply> {
  const model = getModel(body.model, ctx.principal.organizationId);
  checkChatCapabilities(model.id, model.capabilities, body);
  const input: GenerationInput = {
    kind: "chat",
    messages: toMessages(body),
    options: chatOptionsOf(body),
    // Cabin's own screenshot links inlined (lib/models/images): no upstream can fetch them. Text-only requests pass
    // untouched.
    request: model.backends.every((entry) => entry.backend.kind === "local")
      ? body
      : await inlineChatImages(body, { maxImageEdge: model.maxImageEdge }),
  };
  return runText(ctx, "chat.completions", model, input, toSampling(body), body.stream_options?.include_usage === true);
}

export function createCompletion(ctx: ModelRequest, body: CompletionRequest): Promise<ModelReply> {
  const prompt = typeof body.prompt === "string" ? body.prompt : body.prompt[0];
  return runText(
    ctx,
    "completions",
    getModel(body.model, ctx.principal.organizationId),
    { kind: "completion", prompt },
    toSampling(body),
    body.stream_options?.include_usage === true,
  );
}

export async function createEmbeddings(ctx: ModelRequest, body: EmbeddingRequest): Promise<ModelReply> {
  const model = getModel(body.model, ctx.principal.organizationId);
  checkEmbeddingCapabilities(model.id, model.capabilities, body);
  const settle = meter(ctx, model, "embeddings", false);
  const inputs = typeof body.input === "string" ? [body.input] : body.input;
  try {
    const result = await withFallback(model, settle.attempts, ctx.signal, (entry) =>
      entry.backend.embed(inputs, ctx.signal),
    );
    const cost = settle(200, result.promptTokens, 0);
    return withCost(
      jsonReply(embeddingsBody(model.id, result.vectors, body.encoding_format ?? "float", result.promptTokens)),
      cost,
    );
  } catch (err) {
    const status = statusOf(err, ctx.signal);
    if (status >= 500) settle(status, 0, 0);
    if (status === CLIENT_CLOSED)
      getLogger().debug({ requestId: ctx.requestId }, "embedding request abandoned by the client");
    throw err;
  }
}
