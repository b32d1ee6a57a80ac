// /v1/responses on an upstream that speaks the Responses API itself (a backend
// configured with `responses: "native"`): the request goes to the upstream's
// /responses as sent (the upstream's model name in `model`, and the stored
// conversation in place of `previous_response_id`, so chains work whichever
// backend answered their earlier turns), and its answer comes back untouched,
// bytes as they arrive when streamed. Usage is the answer's own
// (`usage.input_tokens`/`output_tokens`); the answer is stored like a
// translated one, for `previous_response_id` and GET.
import { AppError } from "@/lib/api/errors";
import { sseParser } from "@/lib/api/sse-reader";
import { jsonReply, type ModelReply, type ModelRequest } from "@/lib/models/gateway/http";
import type { meter } from "@/lib/models/generation/inference";
import type { InputItem, ResponsesCreateRequest } from "@/lib/models/responses/schema";
import { saveResponse } from "@/lib/models/responses/store";
import { inlineInputImages, type InlineOptions } from "@/lib/models/images/inline-images";
import { mapNativeResponse, NativeEventMapper, type Scaling } from "@/lib/models/responses/model-view";
import type { ForwardedCall, ModelBackend } from "@/lib/models/types";
import { upstreamNetworkError, upstreamTimeout } from "@/lib/models/upstream/errors";
import { SSE_HEADERS } from "@/lib/models/gateway/wire";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

const CLIENT_CLOSED = 499;

/** A native answer, as far as the gateway reads it. */
interface NativeResponse {
  id?: string;
  usage?: { input_tokens?: number; output_tokens?: number } | null;
  output?: InputItem[];
}

export interface NativeCall {
  call: ForwardedCall;
  /** Non-streamed: the whole answer, read while the backend could still be swapped for the next. */
  text?: string;
}

export interface NativeTurn {
  modelId: string;
  body: ResponsesCreateRequest;
  /** The whole conversation: stored turns of `previous_response_id`, then this request's input. */
  conversation: InputItem[];
  store: boolean;
  settle: ReturnType<typeof meter>;
  /** How images are sent (Cabin's own links inlined, the model's size bound). */
  images: InlineOptions;
  /** Set when the model sees the display scaled: its pixel coordinates are mapped back (model-view.ts). */
  scaling: Scaling | undefined;
}

/** Sends the turn to the upstream's /responses; a non-streamed answer is read whole before this resolves. */
export async function forwardResponse(
  backend: ModelBackend,
  turn: NativeTurn,
  signal: RequestSignal,
): Promise<NativeCall> {
  const { previous_response_id: chained, ...body } = turn.body;
  const stream = body.stream === true;
  // The conversation goes whole when chained, or when its images were inlined; else the input as sent.
  const input = await inlineInputImages(turn.conversation, turn.images);
  const call = await backend.forward!(
    "/responses",
    chained || input !== turn.conversation ? { ...body, input } : body,
    signal,
    stream,
  );
  if (stream) return { call };
  try {
    return { call, text: await call.res.text() };
  } catch (err) {
    throw call.timedOut() ? upstreamTimeout(turn.modelId, call.timeoutMs) : upstreamNetworkError(turn.modelId, err);
  } finally {
    call.close();
  }
}

async function finish(turn: NativeTurn, organizationId: string, response: NativeResponse): Promise<number> {
  const cost = turn.settle(200, response.usage?.input_tokens ?? 0, response.usage?.output_tokens ?? 0);
  // Awaited, so a `previous_response_id` sent right after the answer finds it.
  if (turn.store && response.id) {
    await saveResponse(organizationId, response.id, turn.modelId, turn.conversation, {
      ...response,
      output: response.output ?? [],
    });
  }
  return cost;
}

/** The upstream's answer as the client's reply: JSON as read, or the SSE stream relayed. */
export async function nativeReply(ctx: ModelRequest, turn: NativeTurn, native: NativeCall): Promise<ModelReply> {
  if (native.text !== undefined) {
    let response: NativeResponse;
    try {
      response = JSON.parse(native.text) as NativeResponse;
      if (turn.scaling) {
        response = mapNativeResponse(response, turn.scaling);
        native.text = JSON.stringify(response);
      }
    } catch (err) {
      turn.settle(502, 0, 0);
      throw new AppError("upstream_error", `The upstream for ${turn.modelId} answered something that is not JSON`, {
        detail: "upstream_error",
        cause: err,
      });
    }
    const cost = await finish(turn, ctx.principal.organizationId, response);
    // The upstream's own text goes out as it came; `json` is the object it reads as.
    const reply = jsonReply(null);
    reply.body = native.text;
    reply.json = response;
    reply.headers["x-cabin-cost-usd"] = String(cost);
    reply.costUsd = cost;
    return reply;
  }
  return { status: 200, headers: { ...SSE_HEADERS }, body: relay(ctx, turn, native.call) };
}

const FINAL_EVENTS = ["response.completed", "response.incomplete", "response.failed"];

/**
 * Finds the final event (`response.completed` …) in the SSE text as it passes.
 * Only events that name a final event are parsed as JSON: the deltas are not.
 */
class FinalEventWatcher {
  private readonly parser = sseParser((item) => {
    if (item.type !== "event" || !FINAL_EVENTS.some((type) => item.data.includes(type))) return;
    try {
      const event = JSON.parse(item.data) as { type?: string; response?: NativeResponse };
      if (event.type && FINAL_EVENTS.includes(event.type) && event.response) {
        this.response = event.response;
        this.found = true;
      }
    } catch {
      // Not JSON: relayed as it is, and not the event we look for.
    }
  });
  private found = false;
  response: NativeResponse | undefined;

  /** True when this chunk completed the final event. */
  take(chunk: Uint8Array): boolean {
    this.found = false;
    this.parser.push(chunk);
    return this.found;
  }
}

function relay(ctx: ModelRequest, turn: NativeTurn, call: ForwardedCall): ReadableStream<Uint8Array> {
  const chunks = call.res.body[Symbol.asyncIterator]();
  const watcher = new FinalEventWatcher();
  const mapper = turn.scaling && new NativeEventMapper(turn.scaling);
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  /** The 200 is already sent: the failure goes in-band as an `error` event, as on the translated path. */
  const fail = (cause: unknown) => {
    const error = call.timedOut()
      ? upstreamTimeout(turn.modelId, call.timeoutMs)
      : upstreamNetworkError(turn.modelId, cause);
    turn.settle(error.status, 0, 0);
    const event = { type: "error", code: error.detail, message: error.message, param: null };
    controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify(event)}\n\n`));
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    async pull() {
      try {
        const next = await chunks.next();
        if (!next.done) {
          call.refresh();
          const read = next.value as Buffer;
          const chunk = mapper ? mapper.push(read) : new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
          // Stored before the client sees the end, so its next turn can chain from it.
          if (watcher.take(chunk)) await finish(turn, ctx.principal.organizationId, watcher.response!);
          return controller.enqueue(chunk);
        }
        call.close();
        // An upstream that ended without its final event broke off: a failure, in-band and on record.
        if (!watcher.response) fail(new Error("the stream ended before response.completed"));
        else controller.close();
      } catch (err) {
        call.close();
        // A break after the final event changes nothing the client needs.
        if (watcher.response) controller.close();
        else fail(err);
      }
    },
    cancel() {
      call.abort();
      void chunks.return?.(undefined);
      call.close();
      turn.settle(
        CLIENT_CLOSED,
        watcher.response?.usage?.input_tokens ?? 0,
        watcher.response?.usage?.output_tokens ?? 0,
      );
    },
  });
}
