import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/api/errors";
import { ACTION_TYPES, parseAction } from "@/lib/computers/actions/actions";
import { thrownAppError } from "./thrown-app-error";
import { toChord, toPlaywrightKey } from "@/lib/computers/browser/keys";

const fails = (value: unknown, prefix?: string): AppError => thrownAppError(() => parseAction(value, prefix));

describe("parseAction", () => {
  it("knows the full action list of docs/contract.md (change_proxy is its change-proxy path as an action)", () => {
    expect([...ACTION_TYPES].sort()).toEqual([
      "change_proxy",
      "click",
      "close_tab",
      "debug",
      "double_click",
      "drag",
      "fill_credentials",
      "get_html_content",
      "go_to_url",
      "key_down",
      "key_up",
      "keypress",
      "list_tabs",
      "mouse_down",
      "mouse_up",
      "move",
      "new_tab",
      "point_and_type",
      "right_click",
      "screenshot",
      "scroll",
      "set_files",
      "set_viewport",
      "switch_tab",
      "type",
      "wait",
    ]);
  });

  it("takes every action of OpenAI's computer-use union as a model emits it", () => {
    for (const button of ["left", "right", "middle", "wheel", "back", "forward"]) {
      expect(parseAction({ type: "click", x: 1, y: 2, button })).toMatchObject({ type: "click", button });
    }
    expect(parseAction({ type: "move", x: 3, y: 4 })).toEqual({ type: "move", x: 3, y: 4 });
    expect(
      parseAction({
        type: "drag",
        path: [
          { x: 1, y: 1 },
          { x: 2, y: 2 },
          { x: 3, y: 3 },
        ],
      }),
    ).toMatchObject({
      path: [
        { x: 1, y: 1 },
        { x: 2, y: 2 },
        { x: 3, y: 3 },
      ],
    });
    expect(parseAction({ type: "scroll", x: 5, y: 6, scroll_x: -10, scroll_y: 20 })).toMatchObject({
      dx: -10,
      dy: 20,
      x: 5,
      y: 6,
    });
    expect(parseAction({ type: "keypress", keys: ["ctrl", "c"] })).toMatchObject({ keys: ["ctrl", "c"] });
    expect(parseAction({ type: "click", x: 1, y: 2, keys: ["shift"] })).toMatchObject({ held_keys: ["shift"] });
    expect(parseAction({ type: "move", x: 1, y: 2, keys: [] })).toEqual({ type: "move", x: 1, y: 2 });
  });

  it("takes the SDK's point_and_type, key_down/key_up with key or keys, and debug in both of its shapes", () => {
    expect(parseAction({ type: "point_and_type", x: 1, y: 2, text: "hi" })).toMatchObject({ x: 1, y: 2, text: "hi" });
    expect(parseAction({ type: "key_down", key: "Shift" })).toMatchObject({ type: "key_down", keys: ["Shift"] });
    expect(parseAction({ type: "key_up", keys: ["Shift", "a"] })).toMatchObject({
      type: "key_up",
      keys: ["Shift", "a"],
    });
    expect(fails({ type: "key_down" }).param).toBe("action.key");
    expect(fails({ type: "key_down", key: "a", keys: ["b"] }).message).toMatch(/not both/);
    expect(parseAction({ type: "debug", debug: { command: "ls", stream: false } })).toEqual({
      type: "debug",
      command: "ls",
      cwd: undefined,
      env: undefined,
      timeout_seconds: 120,
      max_output_length: 65_536,
    });
    expect(parseAction({ type: "debug", command: "ls", timeout_seconds: 5, max_output_length: 10 })).toMatchObject({
      timeout_seconds: 5,
      max_output_length: 10,
    });
    expect(fails({ type: "debug", debug: {} }).param).toBe("action.command");
    expect(fails({ type: "debug", command: "ls", stream: true }).message).toMatch(/exec/);
  });

  it("normalizes aliases", () => {
    expect(parseAction({ type: "scroll", scroll_y: 300 })).toMatchObject({ type: "scroll", dx: 0, dy: 300 });
    expect(parseAction({ type: "keypress", key: "Enter" })).toMatchObject({ keys: ["Enter"] });
    expect(parseAction({ type: "drag", x1: 1, y1: 2, x2: 3, y2: 4 })).toMatchObject({
      path: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
    });
    expect(parseAction({ type: "wait" })).toEqual({ type: "wait", ms: 1000 });
    expect(parseAction({ type: "click", x: 1, y: 2 })).toMatchObject({ button: "left" });
    expect(parseAction({ type: "screenshot" })).toMatchObject({ base64: false, format: "png" });
  });

  it("names the failing field with the prefix", () => {
    expect(fails({ type: "click", x: "a", y: 1 }).param).toBe("action.x");
    expect(fails({ type: "teleport" }).param).toBe("action.type");
    expect(fails({ type: "teleport" }).message).toContain("known types");
    expect(fails({ type: "drag", x1: 1 }).param).toBe("action.x1");
    expect(fails({ type: "keypress" }).param).toBe("action.keys");
    expect(fails(null).status).toBe(400);
    expect(fails({ type: "click", x: -1, y: 1 }, "").param).toBe("x");
  });

  it("takes only an http://[user:pass@]host:port proxy, or null, for change_proxy", () => {
    expect(parseAction({ type: "change_proxy", proxy_url: "http://u:p@proxy.example:3128" })).toMatchObject({
      proxy_url: "http://u:p@proxy.example:3128",
    });
    expect(parseAction({ type: "change_proxy", proxy_url: null })).toMatchObject({ proxy_url: null });
    for (const proxy_url of [
      "socks5://h:1080",
      "https://h:443",
      "http://h:1/path",
      "http://h:1/?q",
      "h:3128",
      "",
      undefined,
      7,
    ]) {
      expect(fails({ type: "change_proxy", proxy_url }).param, String(proxy_url)).toBe("action.proxy_url");
    }
  });

  it("only navigates to http(s) and about:blank", () => {
    expect(parseAction({ type: "go_to_url", url: "https://example.com/" })).toMatchObject({
      url: "https://example.com/",
    });
    expect(parseAction({ type: "new_tab", url: "about:blank" })).toMatchObject({ url: "about:blank" });
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "chrome://settings", "example.com", ""]) {
      expect(fails({ type: "go_to_url", url }).param).toBe("action.url");
    }
  });
});

describe("key names", () => {
  it("maps agent spellings to Playwright's", () => {
    expect(toPlaywrightKey("CTRL")).toBe("Control");
    expect(toPlaywrightKey("Return")).toBe("Enter");
    expect(toPlaywrightKey("esc")).toBe("Escape");
    expect(toPlaywrightKey("f5")).toBe("F5");
    expect(toPlaywrightKey("a")).toBe("a");
    expect(toPlaywrightKey("PageDown")).toBe("PageDown");
    expect(toChord(["ctrl", "shift", "t"])).toBe("Control+Shift+t");
  });
});
