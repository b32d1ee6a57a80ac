// A Responses request as its model sees it, under the model's `maxImageEdge`
// (docs/models.md "Image size"): OpenAI's pixel tool (`computer_use_preview`)
// is declared with the display scaled to the size its screenshots are sent at,
// and the pixel coordinates the model answers are mapped back to the caller's
// display, on the translated path (`computerAction`) and in a native upstream's
// answer, whole or streamed (`mapNativeResponse`, `NativeEventMapper`).
// Lightcone's 0-1000 `computer_use` needs no mapping: only its images shrink.
import { sseParser } from "@/lib/api/sse-reader";
import { imageScaleFor, toCallerPoint, type ImageScale, type Size } from "@/lib/models/images/image-scale";
import { actionSpaceOf, type ActionSpace } from "@/lib/models/responses/action-space";
import type { ResponsesCreateRequest } from "@/lib/models/responses/schema";

export interface Scaling {
  scale: ImageScale;
  display: Size;
}

export interface ModelView {
  /** The request with its computer tool as the model is told it (the same object when nothing is scaled). */
  body: ResponsesCreateRequest;
  /**
   * The computer tool's space in the model's view, mapping points back to the caller's display; undefined without the
   * tool.
   */
  space: ActionSpace | undefined;
  /** Set when the model's pixel coordinates differ from the caller's. */
  scaling: Scaling | undefined;
}

export function modelViewOf(body: ResponsesCreateRequest, maxImageEdge: number | undefined): ModelView {
  const tool = body.tools?.find((t) => t.type !== "function");
  if (!tool || !("display_width" in tool)) return { body, space: undefined, scaling: undefined };
  const display = { width: tool.display_width, height: tool.display_height };
  const scale = imageScaleFor(display, maxImageEdge);
  if (tool.type === "computer_use" || scale.factor === 1)
    return { body, space: actionSpaceOf(tool), scaling: undefined };
  const seen = { ...tool, display_width: scale.width, display_height: scale.height };
  const scaling = { scale, display };
  return {
    body: { ...body, tools: body.tools!.map((t) => (t === tool ? seen : t)) },
    space: { ...actionSpaceOf(seen), toCaller: (p) => toCallerPoint(p, scale, display) },
    scaling,
  };
}

type Json = Record<string, unknown>;

/** An action's points (x/y, a drag's path) mapped to the caller's display. */
export function actionToCaller(action: Json, scaling: Scaling): Json {
  const map = (p: Json): Json =>
    typeof p.x === "number" && typeof p.y === "number"
      ? { ...p, ...toCallerPoint({ x: p.x, y: p.y }, scaling.scale, scaling.display) }
      : p;
  const out = map(action);
  return Array.isArray(out.path) ? { ...out, path: (out.path as Json[]).map(map) } : out;
}

const mapItem = (item: unknown, scaling: Scaling): unknown => {
  const entry = item as Json | null;
  return entry?.type === "computer_call" && entry.action && typeof entry.action === "object"
    ? { ...entry, action: actionToCaller(entry.action as Json, scaling) }
    : item;
};

/** A native Responses object (or stream event) with its computer_call actions in the caller's pixels. */
export function mapNativeResponse<T>(value: T, scaling: Scaling): T {
  const json = value as Json;
  const out: Json = { ...json };
  if (Array.isArray(json.output)) out.output = json.output.map((item) => mapItem(item, scaling));
  if (json.item) out.item = mapItem(json.item, scaling);
  if (json.response && typeof json.response === "object")
    out.response = mapNativeResponse(json.response as Json, scaling);
  return out as T;
}

/** Re-encodes a native SSE stream event by event, mapping the events that carry computer calls. */
export class NativeEventMapper {
  private out: string[] = [];
  private readonly parser = sseParser((item) => {
    if (item.type === "comment") return void this.out.push(`: ${item.comment}\n\n`);
    let data = item.data;
    if (data.includes("computer_call")) {
      try {
        data = JSON.stringify(mapNativeResponse(JSON.parse(data) as Json, this.scaling));
      } catch {
        // Not JSON: relayed as it came.
      }
    }
    const id = item.id !== undefined ? `id: ${item.id}\n` : "";
    const lines = data
      .split("\n")
      .map((line) => `data: ${line}`)
      .join("\n");
    this.out.push(`${id}event: ${item.event}\n${lines}\n\n`);
  });
  private readonly encoder = new TextEncoder();

  constructor(private readonly scaling: Scaling) {}

  /** The complete events of the stream so far (an event split across chunks comes out whole with its last piece). */
  push(chunk: Uint8Array): Uint8Array {
    this.parser.push(chunk);
    const text = this.out.join("");
    this.out = [];
    return this.encoder.encode(text);
  }
}
