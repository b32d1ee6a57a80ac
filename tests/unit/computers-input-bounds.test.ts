// @needs nothing
// docs/security.md "Request limits": NUL bytes and unbounded deltas are refused with a
// 400 naming the field before they reach argv, xdotool or Chromium's input.
import { describe, expect, it } from "vitest";
import { parseWith } from "@/lib/api/request";
import { parseAction } from "@/lib/computers/actions/actions";
import { execBody } from "@/lib/computers/desktop/exec-service";
import { parseLiveInput } from "@/lib/computers/live/input-message";
import { thrownAppError } from "./thrown-app-error";

describe("NUL bytes", () => {
  it("are refused in typed text and key names, naming the field", () => {
    expect(thrownAppError(() => parseAction({ type: "type", text: "a\0b" })).param).toMatch(/(^|\.)text$/);
    expect(thrownAppError(() => parseAction({ type: "keypress", keys: ["ctrl", "\0"] })).param).toBe("action.keys[1]");
    expect(thrownAppError(() => parseAction({ type: "key_down", key: "\0" })).message).toMatch(/NUL/);
  });

  it("are refused in exec command, cwd and env", () => {
    expect(thrownAppError(() => parseWith(execBody, { command: "ls\0-la" })).param).toBe("command");
    expect(thrownAppError(() => parseWith(execBody, { command: "ls", cwd: "/tmp\0" })).param).toBe("cwd");
    expect(thrownAppError(() => parseWith(execBody, { command: "ls", env: { A: "\0" } })).param).toBe("env.A");
  });

  it("are refused in live-view text and keys", () => {
    expect(thrownAppError(() => parseLiveInput(JSON.stringify({ type: "text", text: "\0" }))).param).toMatch(
      /(^|\.)text$/,
    );
    expect(
      thrownAppError(() => parseLiveInput(JSON.stringify({ type: "key", action: "down", key: "a\0" }))).param,
    ).toBe("key");
  });
});

describe("scroll deltas", () => {
  it("are bounded, under both spellings", () => {
    expect(thrownAppError(() => parseAction({ type: "scroll", dx: -1e308 })).param).toBe("action.dx");
    expect(thrownAppError(() => parseAction({ type: "scroll", scroll_y: 1e6 })).param).toBe("action.scroll_y");
    expect(parseAction({ type: "scroll", dy: -100_000 })).toMatchObject({ dy: -100_000 });
  });
});
