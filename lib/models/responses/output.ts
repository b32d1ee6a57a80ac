// Chat generation deltas (text, tool-call pieces) as Responses output items,
// and the typed stream events that build them, in the order OpenAI sends
// them: an item is added, filled, and done before the next one is added.
// Calls of the function `computer` become computer_call items when the
// request declared the computer-use tool.
import { z } from "zod";
import type { ActionSpace } from "@/lib/models/responses/action-space";
import { COMPUTER_TOOL_NAME } from "@/lib/models/responses/to-chat";
import type { ToolCallDelta } from "@/lib/models/generation/tools";
import { randomHex } from "@/lib/random-id";

export type ResponseEvent = { type: string } & Record<string, unknown>;
export type OutputItem = { type: string; id: string } & Record<string, unknown>;

export const newItemId = (prefix: string) => `${prefix}_${randomHex(16)}`;

const coordinate = z.number().finite();
const pointShape = { x: coordinate, y: coordinate };
const button = z.enum(["left", "right", "wheel", "back", "forward"]);
/** Keys held while the pointer acts (OpenAI's `keys` on a click or scroll). */
const held = { keys: z.array(z.string()).min(1).optional() };
const keys = z.array(z.string()).min(1);
/**
 * OpenAI's action union, plus the Lightcone actions a model's native tool needs (Claude's
 * left_mouse_down/up and hold_key: lib/models/responses/native-computer-use) and a wait's length.
 */
const actionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("click"), ...pointShape, button: button.default("left"), ...held }),
  z.object({ type: z.literal("double_click"), ...pointShape, ...held }),
  z.object({ type: z.literal("drag"), path: z.array(z.object(pointShape)).min(2) }),
  z.object({ type: z.literal("keypress"), keys }),
  z.object({ type: z.literal("move"), ...pointShape }),
  z.object({ type: z.literal("screenshot") }),
  z.object({
    type: z.literal("scroll"),
    ...pointShape,
    scroll_x: z.number().finite().default(0),
    scroll_y: z.number().finite().default(0),
    ...held,
  }),
  z.object({ type: z.literal("type"), text: z.string() }),
  z.object({ type: z.literal("wait"), ms: z.number().int().min(0).max(60_000).optional() }),
  z.object({ type: z.literal("mouse_down"), button: button.default("left") }),
  z.object({ type: z.literal("mouse_up"), button: button.default("left") }),
  z.object({ type: z.literal("key_down"), keys }),
  z.object({ type: z.literal("key_up"), keys }),
]);

/**
 * The action a `computer` call's arguments describe, with coordinates clamped to the tool's space; null when they are
 * not an action.
 */
export function computerAction(args: string, space: ActionSpace): Record<string, unknown> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  const result = actionSchema.safeParse(parsed);
  if (!result.success) return null;
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.round(v)));
  const fit = <T extends { x: number; y: number }>(p: T): T => {
    const seen = { x: clamp(p.x, space.maxX), y: clamp(p.y, space.maxY) };
    return { ...p, ...(space.toCaller ? space.toCaller(seen) : seen) };
  };
  const action = result.data;
  if (action.type === "drag") return { ...action, path: action.path.map(fit) };
  return "x" in action ? fit(action) : action;
}

interface OpenItem {
  outputIndex: number;
  item: OutputItem;
  kind: "message" | "function" | "computer";
  text: string;
  args: string;
  done: boolean;
}

export class OutputAssembler {
  private readonly items: OpenItem[] = [];
  private readonly calls = new Map<number, OpenItem>();
  private current: OpenItem | undefined;

  constructor(
    private readonly emit: (event: ResponseEvent) => void,
    /** Set when the request declared the computer-use tool. */
    private readonly space: ActionSpace | undefined,
  ) {}

  text(delta: string) {
    if (!delta) return;
    let open = this.current;
    if (open?.kind !== "message") {
      open = this.open("message", {
        type: "message",
        id: newItemId("msg"),
        status: "in_progress",
        role: "assistant",
        content: [],
      });
      this.emit({
        type: "response.content_part.added",
        item_id: open.item.id,
        output_index: open.outputIndex,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
    }
    open.text += delta;
    this.emit({
      type: "response.output_text.delta",
      item_id: open.item.id,
      output_index: open.outputIndex,
      content_index: 0,
      delta,
      logprobs: [],
    });
  }

  toolCalls(deltas: readonly ToolCallDelta[]) {
    for (const d of deltas) {
      let call = this.calls.get(d.index);
      if (!call) {
        const name = d.function.name ?? "";
        const callId = d.id || newItemId("call");
        call =
          name === COMPUTER_TOOL_NAME && this.space
            ? this.open(
                "computer",
                { type: "computer_call", id: newItemId("cu"), call_id: callId, status: "in_progress" },
                false,
              )
            : this.open("function", {
                type: "function_call",
                id: newItemId("fc"),
                call_id: callId,
                name,
                arguments: "",
                status: "in_progress",
              });
        this.calls.set(d.index, call);
      } else if (d.function.name && call.kind === "function") {
        call.item.name = `${call.item.name as string}${d.function.name}`;
      }
      const fragment = d.function.arguments ?? "";
      if (!fragment) continue;
      call.args += fragment;
      if (call.kind === "function" && !call.done) {
        this.emit({
          type: "response.function_call_arguments.delta",
          item_id: call.item.id,
          output_index: call.outputIndex,
          delta: fragment,
        });
      }
    }
  }

  /**
   * Closes what is open; the finished items, in output order. `cutOff` (the output limit stopped the
   * generation) marks the item still being written `incomplete`, as the reference API does: its text or
   * arguments end where the limit fell. A computer call whose arguments already form an action is whole.
   */
  finish(cutOff = false): OutputItem[] {
    const cut = cutOff ? this.current : undefined;
    for (const open of this.items) this.close(open, open === cut);
    return this.items.map((open) => open.item);
  }

  /** The text of all message items, as the SDKs' `output_text` convenience joins it. */
  outputText(): string {
    return this.items
      .filter((open) => open.kind === "message")
      .map((open) => open.text)
      .join("");
  }

  private open(kind: OpenItem["kind"], item: OutputItem, announce = true): OpenItem {
    if (this.current) this.close(this.current);
    const open: OpenItem = { outputIndex: this.items.length, item, kind, text: "", args: "", done: false };
    this.items.push(open);
    this.current = open;
    if (announce) this.emit({ type: "response.output_item.added", output_index: open.outputIndex, item: { ...item } });
    return open;
  }

  private close(open: OpenItem, cut = false) {
    if (open.done) return;
    open.done = true;
    const status = cut ? "incomplete" : "completed";
    if (this.current === open) this.current = undefined;
    const ref = { item_id: open.item.id, output_index: open.outputIndex };
    if (open.kind === "message") {
      const part = { type: "output_text", text: open.text, annotations: [] };
      this.emit({ type: "response.output_text.done", ...ref, content_index: 0, text: open.text, logprobs: [] });
      this.emit({ type: "response.content_part.done", ...ref, content_index: 0, part });
      Object.assign(open.item, { status, content: [part] });
    } else if (open.kind === "function") {
      this.emit({ type: "response.function_call_arguments.done", ...ref, name: open.item.name, arguments: open.args });
      Object.assign(open.item, { arguments: open.args, status });
    } else {
      const action = computerAction(open.args, this.space!);
      if (action) Object.assign(open.item, { action, pending_safety_checks: [], status: "completed" });
      // Arguments that are no action stay visible as what they are: a call of the function `computer`.
      else
        Object.assign(open.item, {
          type: "function_call",
          id: newItemId("fc"),
          name: COMPUTER_TOOL_NAME,
          arguments: open.args,
          status,
        });
      this.emit({ type: "response.output_item.added", output_index: open.outputIndex, item: { ...open.item } });
    }
    this.emit({ type: "response.output_item.done", output_index: open.outputIndex, item: { ...open.item } });
  }
}
