import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/api/errors";
import { ACTION_TYPES, parseAction } from "@/lib/computers/actions";
import { thrownAppError } from "./thrown-app-error";
import { toChord, toPlaywrightKey } from "@/lib/computers/browser/keys";

const fails = (value: unknown, prefix?: string): AppError => thrownAppError(() => parseAction(value, prefix));

describe("parseAction", () => {
  it("knows the full action list of docs/contract.md (change_proxy is its change-proxy path as an action)", () => {
    expect([...ACTION_TYPES].sort()).toEqual([
      "change_proxy", "click", "close_tab", "double_click", "drag", "get_html_content", "go_to_url", "key_down", "key_up", "keypress",
      "list_tabs", "mouse_down", "mouse_up", "new_tab", "right_click", "screenshot", "scroll", "set_viewport",
      "switch_tab", "type", "wait",
    ]);
  });

  it("normalizes aliases", () => {
    expect(parseAction({ type: "scroll", scroll_y: 300 })).toMatchObject({ type: "scroll", dx: 0, dy: 300 });
    expect(parseAction({ type: "keypress", key: "Enter" })).toMatchObject({ keys: ["Enter"] });
    expect(parseAction({ type: "drag", x1: 1, y1: 2, x2: 3, y2: 4 })).toMatchObject({ path: [{ x: 1, y: 2 }, { x: 3, y: 4 }] });
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
    expect(parseAction({ type: "change_proxy", proxy_url: "http://u:p@proxy.example:3128" })).toMatchObject({ proxy_url: "http://u:p@proxy.example:3128" });
    expect(parseAction({ type: "change_proxy", proxy_url: null })).toMatchObject({ proxy_url: null });
    for (const proxy_url of ["socks5://h:1080", "https://h:443", "http://h:1/path", "http://h:1/?q", "h:3128", "", undefined, 7]) {
      expect(fails({ type: "change_proxy", proxy_url }).param, String(proxy_url)).toBe("action.proxy_url");
    }
  });

  it("only navigates to http(s) and about:blank", () => {
    expect(parseAction({ type: "go_to_url", url: "https://example.com/" })).toMatchObject({ url: "https://example.com/" });
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
