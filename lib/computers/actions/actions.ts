// The generic action vocabulary of POST /computers/{id}/execute (docs/contract.md),
// shared by every kind of computer. Parsing normalizes the aliases clients send
// (CUA-style `scroll_x`, a single `key`, `path` for drags) so drivers see one
// shape; any other field is refused (a 400 naming it), never silently dropped.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith, textWithoutNul } from "@/lib/api/request";
import { debugAction } from "@/lib/computers/actions/debug-action";
import { credentialName } from "@/lib/credentials/credential-input";

const coord = z.number().finite().min(0).max(100_000);
// Wheel deltas in pixels: beyond a few screens a scroll means nothing, and
// Chromium stalls its input pipeline on huge ones (dx: -1e308 hung every later mouse action).
const delta = z.number().finite().min(-100_000).max(100_000);
const keyName = textWithoutNul(32, 1);
const tabId = z.string().min(1).max(64);
const button = z.enum(["left", "right", "middle", "back", "forward", "wheel"]);

/** http(s) or about:blank only: file:, chrome: and javascript: would reach the host or the browser itself. */
export const navigableUrl = z
  .string()
  .min(1)
  .max(8192)
  .refine((value) => {
    if (value === "about:blank") return true;
    try {
      const { protocol } = new URL(value);
      return protocol === "http:" || protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL or about:blank");

/**
 * Fields the public SDK may send on any action (its `Action` type): accepted so
 * its clients work unmodified. `include_context` is moot (page_context is always
 * sent) and `request_id` is the SDK's stream-correlation hint; the ActionResult's
 * request_id stays the server's own.
 */
const sdkFields = { include_context: z.boolean().optional(), request_id: z.string().max(128).optional() };
const target = { tab_id: tabId.optional(), ...sdkFields };
/** OpenAI's computer-use actions may name keys held down while the pointer acts (`keys: ["shift"]` on a click). */
const held = { keys: z.array(keyName).max(8).optional() };
const heldKeys = (keys: string[] | undefined): { held_keys?: string[] } => (keys?.length ? { held_keys: keys } : {});

const click = z
  .strictObject({ type: z.literal("click"), x: coord, y: coord, button: button.default("left"), ...held, ...target })
  .transform(({ keys, ...a }) => ({ ...a, ...heldKeys(keys) }));
const doubleClick = z
  .strictObject({ type: z.literal("double_click"), x: coord, y: coord, ...held, ...target })
  .transform(({ keys, ...a }) => ({ ...a, ...heldKeys(keys) }));
/** OpenAI's `move`: the pointer goes there (hover), nothing is pressed. */
const move = z
  .strictObject({ type: z.literal("move"), x: coord, y: coord, ...held, ...target })
  .transform(({ keys, ...a }) => ({ ...a, ...heldKeys(keys) }));
/** The Lightcone SDK's `point_and_type`: a left click at (x, y), then the text typed there. */
const pointAndType = z.strictObject({
  type: z.literal("point_and_type"),
  x: coord,
  y: coord,
  text: textWithoutNul(100_000),
  ...target,
});
const rightClick = z.strictObject({ type: z.literal("right_click"), x: coord, y: coord, ...target });
const drag = z
  .strictObject({
    type: z.literal("drag"),
    x1: coord.optional(),
    y1: coord.optional(),
    x2: coord.optional(),
    y2: coord.optional(),
    path: z
      .array(z.strictObject({ x: coord, y: coord }))
      .min(2)
      .max(1000)
      .optional(),
    ...held,
    ...target,
  })
  .transform((a, ctx) => {
    const path =
      a.path ??
      (a.x1 !== undefined && a.y1 !== undefined && a.x2 !== undefined && a.y2 !== undefined
        ? [
            { x: a.x1, y: a.y1 },
            { x: a.x2, y: a.y2 },
          ]
        : undefined);
    if (!path) {
      ctx.addIssue({ code: "custom", message: "give x1, y1, x2, y2 or a path of at least two points", path: ["x1"] });
      return z.NEVER;
    }
    return { type: "drag" as const, path, tab_id: a.tab_id, ...heldKeys(a.keys) };
  });
const typeText = z.strictObject({ type: z.literal("type"), text: textWithoutNul(100_000), ...target });
const keypress = z
  .strictObject({
    type: z.literal("keypress"),
    keys: z.array(keyName).min(1).max(8).optional(),
    key: keyName.optional(),
    ...target,
  })
  .transform((a, ctx) => {
    const keys = a.keys ?? (a.key ? [a.key] : undefined);
    if (!keys) {
      ctx.addIssue({ code: "custom", message: "give keys (an array, pressed together) or key", path: ["keys"] });
      return z.NEVER;
    }
    return { type: "keypress" as const, keys, tab_id: a.tab_id };
  });
/** key_down/key_up: the SDK's `key`, or `keys` (several held together: pressed in order, released in reverse). */
const keyHold = <T extends "key_down" | "key_up">(type: T) =>
  z
    .strictObject({
      type: z.literal(type),
      key: keyName.optional(),
      keys: z.array(keyName).min(1).max(8).optional(),
      ...target,
    })
    .transform((a, ctx) => {
      const keys = a.keys ?? (a.key ? [a.key] : undefined);
      if (!keys || (a.key && a.keys)) {
        ctx.addIssue({ code: "custom", message: "give key (one key) or keys (an array), not both", path: ["key"] });
        return z.NEVER;
      }
      return { type, keys, tab_id: a.tab_id };
    });
const keyDown = keyHold("key_down");
const keyUp = keyHold("key_up");
const mouseDown = z.strictObject({
  type: z.literal("mouse_down"),
  x: coord.optional(),
  y: coord.optional(),
  button: button.default("left"),
  ...target,
});
const mouseUp = z.strictObject({
  type: z.literal("mouse_up"),
  x: coord.optional(),
  y: coord.optional(),
  button: button.default("left"),
  ...target,
});
const scroll = z
  .strictObject({
    type: z.literal("scroll"),
    dx: delta.optional(),
    dy: delta.optional(),
    scroll_x: delta.optional(),
    scroll_y: delta.optional(),
    x: coord.optional(),
    y: coord.optional(),
    ...held,
    ...target,
  })
  .transform((a) => ({
    type: "scroll" as const,
    dx: a.dx ?? a.scroll_x ?? 0,
    dy: a.dy ?? a.scroll_y ?? 0,
    x: a.x,
    y: a.y,
    tab_id: a.tab_id,
    ...heldKeys(a.keys),
  }));
const wait = z
  .strictObject({
    type: z.literal("wait"),
    ms: z.number().int().min(0).max(60_000).optional(),
    duration_ms: z.number().int().min(0).max(60_000).optional(),
    ...sdkFields,
  })
  .transform((a) => ({ type: "wait" as const, ms: a.ms ?? a.duration_ms ?? 1000 }));
const screenshot = z.strictObject({
  type: z.literal("screenshot"),
  base64: z.boolean().default(false),
  format: z.enum(["png", "jpeg"]).default("png"),
  quality: z.number().int().min(1).max(100).optional(),
  ...target,
});
const goToUrl = z.strictObject({ type: z.literal("go_to_url"), url: navigableUrl, ...target });
const getHtml = z.strictObject({
  type: z.literal("get_html_content"),
  auto_detect_encoding: z.boolean().optional(),
  ...target,
});
const setViewport = z.strictObject({
  type: z.literal("set_viewport"),
  width: z.number().int().min(320).max(3840),
  height: z.number().int().min(240).max(2160),
  scale_factor: z.number().min(0.5).max(4).optional(),
  ...sdkFields,
});
const proxyUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" && url.hostname !== "" && url.pathname === "/" && !url.search;
    } catch {
      return false;
    }
  }, "must be an http:// proxy URL (http://[user:pass@]host:port), or null to go direct");
const changeProxy = z.strictObject({ type: z.literal("change_proxy"), proxy_url: proxyUrl.nullable(), ...sdkFields });
const listTabs = z.strictObject({ type: z.literal("list_tabs"), ...sdkFields });
const newTab = z.strictObject({ type: z.literal("new_tab"), url: navigableUrl.optional(), ...sdkFields });
const switchTab = z.strictObject({ type: z.literal("switch_tab"), tab_id: tabId, ...sdkFields });
const closeTab = z.strictObject({ type: z.literal("close_tab"), tab_id: tabId, ...sdkFields });
/** The uploads the page's next file chooser gets (docs/files.md); without it, the session's latest upload. */
const setFiles = z.strictObject({
  type: z.literal("set_files"),
  file_ids: z.array(z.string().regex(/^file_[0-9a-f]{24}$/, "must be a file id (file_<hex>) of this session")).max(32),
  ...sdkFields,
});
/** Fills the page's login form from the vault (docs/credentials.md); the action names the credential, never a value. */
const fillCredentials = z.strictObject({ type: z.literal("fill_credentials"), name: credentialName, ...target });

const SCHEMAS = {
  click,
  double_click: doubleClick,
  right_click: rightClick,
  move,
  point_and_type: pointAndType,
  drag,
  type: typeText,
  keypress,
  key_down: keyDown,
  key_up: keyUp,
  mouse_down: mouseDown,
  mouse_up: mouseUp,
  scroll,
  wait,
  screenshot,
  go_to_url: goToUrl,
  get_html_content: getHtml,
  set_viewport: setViewport,
  list_tabs: listTabs,
  new_tab: newTab,
  switch_tab: switchTab,
  close_tab: closeTab,
  change_proxy: changeProxy,
  set_files: setFiles,
  debug: debugAction,
  fill_credentials: fillCredentials,
} as const;

/** Every action's schema by type: the OpenAPI document (lib/routes/openapi) is generated from these. */
export const ACTION_SCHEMAS = SCHEMAS;

export type ActionType = keyof typeof SCHEMAS;
export const ACTION_TYPES = Object.keys(SCHEMAS) as ActionType[];
export type Action = { [K in ActionType]: z.output<(typeof SCHEMAS)[K]> }[ActionType];
/** An action as a client writes it (aliases, defaults left out): what `parseAction` takes, typed. */
export type ActionInput = { [K in ActionType]: z.input<(typeof SCHEMAS)[K]> }[ActionType];
export type ActionOf<K extends ActionType> = Extract<Action, { type: K }>;

/** The tab actions; both kinds have tabs (a desktop's are those of its own Chromium). */
export const TAB_ACTIONS: ReadonlySet<ActionType> = new Set(["list_tabs", "new_tab", "switch_tab", "close_tab"]);

function isActionType(value: unknown): value is ActionType {
  return typeof value === "string" && Object.hasOwn(SCHEMAS, value);
}

/** Parses one action object; field errors are 400s naming `<prefix>.<field>` (just `<field>` when prefix is ""). */
export function parseAction(value: unknown, prefix = "action"): Action {
  const name = (field: string) => (prefix ? `${prefix}.${field}` : field);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("invalid_request", `'${prefix || "body"}' must be an object with a 'type'`, {
      param: prefix || undefined,
    });
  }
  const type = (value as { type?: unknown }).type;
  if (!isActionType(type)) {
    throw new AppError(
      "invalid_request",
      `Unknown action type ${JSON.stringify(type ?? null)}; known types: ${ACTION_TYPES.join(", ")}`,
      { param: name("type") },
    );
  }
  try {
    return parseWith(SCHEMAS[type] as z.ZodType<Action>, value);
  } catch (err) {
    if (prefix && err instanceof AppError && err.param) {
      throw new AppError("invalid_request", err.message.replace(`'${err.param}'`, `'${prefix}.${err.param}'`), {
        param: `${prefix}.${err.param}`,
      });
    }
    throw err;
  }
}
