// POST /v1/responses: the request becomes a chat completion with tools
// (`toChatRequest`), runs on the model's chat backend like any chat request
// (same capability checks, same metering through `meter`), and its deltas
// become output items (`OutputAssembler`), answered whole or as typed SSE events.
// A backend configured as speaking Responses natively gets the request as is
// instead (`forwardResponse`); fallbacks may mix both kinds.
import { AppError } from "@/lib/api/errors";
import { errorBody, toAppError } from "@/lib/api/render";
import { parseWith } from "@/lib/api/request";
import { checkChatCapabilities } from "@/lib/models/generation/capabilities";
import { jsonReply, type ModelReply, type ModelRequest } from "@/lib/models/gateway/http";
import { CLIENT_CLOSED, drain, meter, statusOf, withCost } from "@/lib/models/generation/inference";
import { withFallback } from "@/lib/models/generation/fallback";
import { getModel } from "@/lib/models/registry";
import { forwardResponse, nativeReply, type NativeCall, type NativeTurn } from "@/lib/models/responses/passthrough";
import type { ActionSpace } from "@/lib/models/responses/action-space";
import { inlineChatImages, inlineInputImages } from "@/lib/models/images/inline-images";
import { modelViewOf } from "@/lib/models/responses/model-view";
import { newItemId, OutputAssembler, type ResponseEvent } from "@/lib/models/responses/output";
import type { InputItem, ResponsesCreateRequest } from "@/lib/models/responses/schema";
import { chainedInput, saveResponse } from "@/lib/models/responses/store";
import { toChatRequest } from "@/lib/models/responses/to-chat";
import { chatCompletionSchema, toMessages, toSampling, type ChatCompletionRequest } from "@/lib/models/gateway/schemas";
import { chatOptionsOf } from "@/lib/models/generation/tools";
import type { FinishReason, Generation, ResolvedModel } from "@/lib/models/types";
import { SSE_HEADERS } from "@/lib/models/gateway/wire";

type ResponseObject = Record<string, unknown> & { id: string; status: string; output: unknown[] };

/** The response object around `output`, echoing the request's settings as OpenAI does. */
function responseObject(
  id: string,
  createdAt: number,
  model: string,
  body: ResponsesCreateRequest,
  store: boolean,
): ResponseObject {
  return {
    id,
    object: "response",
    created_at: createdAt,
    status: "in_progress",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? "disabled",
    usage: null,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}

/** Fills in the finished response: output, status (`length` is incomplete), usage. */
function complete(response: ResponseObject, assembler: OutputAssembler, generation: Generation, reason: FinishReason) {
  const incomplete = reason === "length";
  const output = assembler.finish(incomplete);
  Object.assign(response, {
    status: incomplete ? "incomplete" : "completed",
    incomplete_details: incomplete ? { reason: "max_output_tokens" } : null,
    output,
    output_text: assembler.outputText(),
    usage: {
      input_tokens: generation.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: generation.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: generation.promptTokens + generation.completionTokens,
    },
  });
}

/**
 * Capability refusals named in the Responses request's own terms (`input[i].content[j]`,
 * `text.format`); `checkChatCapabilities` stays the backstop for images in chained turns.
 */
function checkResponseCapabilities(model: ResolvedModel, body: ResponsesCreateRequest) {
  const refuse = (what: string, param: string) =>
    new AppError("invalid_request", `The model '${model.id}' does not support ${what}.`, {
      param,
      detail: "unsupported_capability",
    });
  if (model.capabilities.image_inputs === "refused" && Array.isArray(body.input)) {
    for (const [i, item] of body.input.entries()) {
      if (item.type === "computer_call_output") throw refuse("image inputs", `input[${i}].output`);
      if (item.type !== "message" || typeof item.content === "string") continue;
      const j = item.content.findIndex((part) => part.type === "input_image");
      if (j >= 0) throw refuse("image inputs", `input[${i}].content[${j}]`);
    }
  }
  if (!model.capabilities.tools && body.tools?.length) throw refuse("tools", "tools");
  const format = body.text?.format?.type;
  if (!model.capabilities.json_schema && format && format !== "text")
    throw refuse(`text.format ${format}`, "text.format");
}

export async function createResponse(ctx: ModelRequest, body: ResponsesCreateRequest): Promise<ModelReply> {
  const model = getModel(body.model, ctx.principal.organizationId);
  checkResponseCapabilities(model, body);
  const organizationId = ctx.principal.organizationId;
  const items: InputItem[] =
    typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : body.input;
  const conversation = body.previous_response_id
    ? [...(await chainedInput(organizationId, body.previous_response_id)), ...items]
    : items;
  // What the model sees: its computer tool's display scaled to its image bound (model-view.ts).
  const view = modelViewOf(body, model.maxImageEdge);
  const images = { maxImageEdge: model.maxImageEdge };
  // Built when a backend needs the chat form: a native backend takes the items it produced itself as they are.
  let chat: ChatCompletionRequest | undefined;
  const chatForm = (): ChatCompletionRequest => {
    if (chat) return chat;
    chat = parseWith(chatCompletionSchema, toChatRequest(view.body, conversation));
    checkChatCapabilities(model.id, model.capabilities, chat);
    return chat;
  };
  if (model.backends.some((entry) => entry.responses === "translate")) chatForm();
  const space = view.space;
  const store = body.store !== false;
  const stream = body.stream === true;

  const settle = meter(ctx, model, "responses", stream);
  const native: NativeTurn = {
    modelId: model.id,
    body: view.body,
    conversation,
    store,
    settle,
    images,
    scaling: view.scaling,
  };
  let started: { generation: Generation } | { native: NativeCall };
  try {
    // Each backend is reached its own way: forwarded as is when it speaks Responses natively, else as chat.
    started = await withFallback(model, settle.attempts, ctx.signal, async (entry) =>
      entry.responses === "native" && entry.backend.forward
        ? { native: await forwardResponse(entry.backend, native, ctx.signal) }
        : {
            generation: await entry.backend.generate(
              {
                kind: "chat",
                messages: toMessages(chatForm()),
                options: chatOptionsOf(chatForm()),
                // Cabin's own screenshot links inlined for any backend that sends them on (the local model reads no
                // image).
                request: entry.backend.kind === "local" ? chatForm() : await inlineChatImages(chatForm(), images),
                // A backend with its own computer tool (Claude's) answers from the items themselves.
                responses:
                  entry.backend.kind === "anthropic"
                    ? { body: view.body, items: await inlineInputImages(conversation, images) }
                    : undefined,
              },
              toSampling(chatForm()),
              ctx.signal,
            ),
          },
    );
  } catch (err) {
    if (statusOf(err, ctx.signal) >= 500) settle(statusOf(err, ctx.signal), 0, 0);
    throw err;
  }
  if ("native" in started) return nativeReply(ctx, native, started.native);
  const generation = started.generation;
  const response = responseObject(newItemId("resp"), Math.floor(Date.now() / 1000), model.id, body, store);
  const finishAndStore = async (assembler: OutputAssembler, reason: FinishReason) => {
    complete(response, assembler, generation, reason);
    const cost = settle(200, generation.promptTokens, generation.completionTokens);
    // Awaited, so a `previous_response_id` sent right after the answer finds it.
    if (store) await saveResponse(organizationId, response.id, model.id, conversation, response);
    return cost;
  };

  if (!stream) {
    const assembler = new OutputAssembler(() => {}, space);
    const drained = await drain(generation, settle, ctx.signal, (delta) =>
      typeof delta === "string" ? assembler.text(delta) : assembler.toolCalls(delta.toolCalls),
    );
    if ("reply" in drained) return drained.reply;
    const cost = await finishAndStore(assembler, drained.finishReason); // completes `response` before it is serialized
    return withCost(jsonReply(response), cost);
  }
  return {
    status: 200,
    headers: { ...SSE_HEADERS },
    body: eventStream(ctx, generation, response, space, finishAndStore, settle),
  };
}

function eventStream(
  ctx: ModelRequest,
  generation: Generation,
  response: ResponseObject,
  space: ActionSpace | undefined,
  finishAndStore: (assembler: OutputAssembler, reason: FinishReason) => Promise<unknown>,
  settle: ReturnType<typeof meter>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let sequence = 0;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const emit = (event: ResponseEvent) =>
    controller.enqueue(
      encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`),
    );
  const assembler = new OutputAssembler(emit, space);
  const deltas = generation[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      emit({ type: "response.created", response: { ...response } });
      emit({ type: "response.in_progress", response: { ...response } });
    },
    async pull() {
      try {
        // A stream only pulls again after an enqueue, so read on until a delta produced an event
        // (a computer call's pieces produce none until it is whole).
        let next = await deltas.next();
        for (const before = sequence; !next.done; next = await deltas.next()) {
          if (typeof next.value === "string") assembler.text(next.value);
          else assembler.toolCalls(next.value.toolCalls);
          if (sequence > before) return;
        }
        if (!generation.finishReason) {
          settle(CLIENT_CLOSED, generation.promptTokens, generation.completionTokens);
          return controller.close();
        }
        await finishAndStore(assembler, generation.finishReason);
        emit({ type: response.status === "completed" ? "response.completed" : "response.incomplete", response });
        controller.close();
      } catch (err) {
        // The 200 is already sent: the failure goes in-band as an `error` event, which the clients raise.
        const appError = err instanceof AppError ? err : toAppError(err, ctx.requestId);
        settle(statusOf(err, ctx.signal), generation.promptTokens, generation.completionTokens);
        const { error } = errorBody(appError, "openai") as {
          error: { message: string; type: string; code: string; param: string | null };
        };
        emit({ type: "error", code: error.code, message: error.message, param: error.param ?? null });
        controller.close();
      }
    },
    cancel() {
      generation.cancel();
      void deltas.return?.(undefined);
      void generation.ended.then(() => settle(CLIENT_CLOSED, generation.promptTokens, generation.completionTokens));
    },
  });
}
