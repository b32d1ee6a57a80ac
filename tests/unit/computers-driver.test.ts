// @needs nothing
// The driver boundary in pure logic: the one mapping of driver/manager failures
// (asAppError, asActionResult), the per-computer ActionQueue, and the one key
// normaliser both drivers read.
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/api/errors";
import { ActionError, type ActionErrorReason } from "@/lib/computers/actions/action-error";
import { ActionQueue } from "@/lib/computers/actions/action-queue";
import { toPlaywrightKey } from "@/lib/computers/browser/keys";
import { toKeysym } from "@/lib/computers/desktop/xdotool";
import { asActionResult, asAppError } from "@/lib/computers/actions/failures";
import { canonicalKey } from "@/lib/computers/sessions/keys";

const live = (ending: boolean) => ({ id: "comp_1", ending: ending ? Promise.resolve() : null });
const call = { requestId: "req_1" };

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("asAppError: every ActionError reason has one status", () => {
  const table: [ActionErrorReason, number, string | undefined][] = [
    ["invalid", 400, "invalid"],
    ["not_supported", 400, "not_supported"],
    ["wrong_kind", 400, "wrong_kind"],
    ["tab_not_found", 404, "tab_not_found"],
    ["last_tab", 409, "last_tab"],
    ["conflict", 409, "conflict"],
    ["failed", 502, "action_failed"],
  ];
  it.each(table)("%s → %i", (reason, status, detail) => {
    const err = asAppError(new ActionError(reason, `it was ${reason}`, { param: "environment_id" }));
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(status);
    expect(err.detail).toBe(detail);
    expect(err.message).toBe(`it was ${reason}`);
    expect(err.param).toBe("environment_id");
  });

  it("names the operation of a failure and defaults a missing tab's param", () => {
    expect(asAppError(new ActionError("failed", "boom"), undefined, "exec_failed").detail).toBe("exec_failed");
    expect(asAppError(new ActionError("tab_not_found", "no tab")).param).toBe("tab_id");
  });

  it("answers 409 'terminated' for anything thrown by a session that is ending", () => {
    for (const err of [
      new ActionError("failed", "page crashed"),
      new ActionError("invalid", "x"),
      new Error("target closed"),
    ]) {
      const mapped = asAppError(err, live(true));
      expect(mapped.status).toBe(409);
      expect(mapped.message).toBe("Session 'comp_1' is terminated (ended while the action ran); create a new session");
    }
  });

  it("passes AppErrors through, rebuilds copies from another bundle, and hides unknown errors behind a 500", () => {
    const own = new AppError("unavailable", "shutting down");
    expect(asAppError(own, live(false))).toBe(own);
    const foreign = Object.assign(new Error("busy"), {
      name: "AppError",
      code: "unavailable",
      detail: "provision_failed",
    });
    const rebuilt = asAppError(foreign);
    expect(rebuilt).toBeInstanceOf(AppError);
    expect([rebuilt.status, rebuilt.message, rebuilt.detail]).toEqual([503, "busy", "provision_failed"]);
    const unknown = asAppError(new Error("socket hang up\n  at internals"));
    expect([unknown.status, unknown.message]).toEqual([500, "Session operation failed: socket hang up"]);
  });
});

describe("asActionResult: only an action that ran and failed is a result", () => {
  it("turns failed and tab_not_found into status error", () => {
    for (const reason of ["failed", "tab_not_found"] as const) {
      const result = asActionResult(new ActionError(reason, `${reason}!`), call, live(false));
      expect(result).toMatchObject({ status: "error", error_message: `${reason}!`, request_id: "req_1" });
      expect(Number.isNaN(Date.parse(result.timestamp))).toBe(false);
    }
  });

  it("throws every other failure as the request's AppError", () => {
    expect((thrown(() => asActionResult(new ActionError("invalid", "bad selector"), call)) as AppError).status).toBe(
      400,
    );
    expect((thrown(() => asActionResult(new ActionError("last_tab", "last"), call)) as AppError).status).toBe(409);
    expect((thrown(() => asActionResult(new Error("bug"), call)) as AppError).status).toBe(500);
    expect(
      (thrown(() => asActionResult(new ActionError("failed", "x"), call, live(true))) as AppError).message,
    ).toMatch(/is terminated/);
  });
});

describe("ActionQueue", () => {
  it("runs actions one at a time in the order they came", async () => {
    const queue = new ActionQueue(1000);
    const log: string[] = [];
    const step = (name: string, ms: number) =>
      queue.run(async () => {
        log.push(`${name}:start`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`${name}:end`);
        return name;
      });
    expect(await Promise.all([step("a", 30), step("b", 1), step("c", 10)])).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  });

  it("keeps going after a failed action", async () => {
    const queue = new ActionQueue(1000);
    const failed = queue.run(async () => {
      throw new ActionError("failed", "element gone");
    });
    await expect(failed).rejects.toMatchObject({ reason: "failed", message: "element gone" });
    expect(await queue.run(async () => "next")).toBe("next");
  });

  it("fails a stuck action with ActionError failed naming the timeout, and runs the next one", async () => {
    const queue = new ActionQueue(50);
    const stuck = queue.run(() => new Promise<never>(() => {}));
    const next = queue.run(async () => "ran");
    await expect(stuck).rejects.toMatchObject({
      name: "ActionError",
      reason: "failed",
      message: "Action timed out after 0.1 s",
    });
    expect(await next).toBe("ran");
  });
});

describe("one key normaliser for both drivers", () => {
  // input → [canonical, Playwright, X keysym]
  const cases: [string, string, string, string][] = [
    ["Control", "Control", "Control", "ctrl"],
    ["ctrl", "Control", "Control", "ctrl"],
    ["CTRL", "Control", "Control", "ctrl"],
    ["Control_L", "Control", "Control", "ctrl"],
    ["cmd", "Meta", "Meta", "super"],
    ["Super", "Meta", "Meta", "super"],
    ["option", "Alt", "Alt", "alt"],
    ["Enter", "Enter", "Enter", "Return"],
    ["Return", "Enter", "Enter", "Return"],
    ["esc", "Escape", "Escape", "Escape"],
    ["BackSpace", "Backspace", "Backspace", "BackSpace"],
    ["ArrowLeft", "ArrowLeft", "ArrowLeft", "Left"],
    ["left", "ArrowLeft", "ArrowLeft", "Left"],
    ["Page_Down", "PageDown", "PageDown", "Next"],
    ["PageUp", "PageUp", "PageUp", "Prior"],
    ["Prior", "PageUp", "PageUp", "Prior"],
    ["Caps_Lock", "CapsLock", "CapsLock", "Caps_Lock"],
    ["f5", "F5", "F5", "F5"],
    ["F12", "F12", "F12", "F12"],
    ["space", " ", " ", "space"],
    [" ", " ", " ", "space"],
    ["plus", "+", "+", "plus"],
    ["/", "/", "/", "slash"],
    ["a", "a", "a", "a"],
    ["A", "A", "A", "A"],
    ["7", "7", "7", "7"],
    ["é", "é", "é", "é"],
    ["NumpadAdd", "NumpadAdd", "NumpadAdd", "NumpadAdd"],
    ["XF86AudioPlay", "XF86AudioPlay", "XF86AudioPlay", "XF86AudioPlay"],
  ];
  it.each(cases)("%j → %j, Playwright %j, X %j", (input, canonical, playwright, keysym) => {
    expect(canonicalKey(input)).toBe(canonical);
    expect(toPlaywrightKey(input)).toBe(playwright);
    expect(toKeysym(input)).toBe(keysym);
  });

  it("both drivers refuse the same names with a 400 naming the field", () => {
    for (const bad of ["ctrl;rm", "ctrl+c", "Page Down", "--help", "$(id)"]) {
      for (const map of [canonicalKey, toPlaywrightKey, toKeysym]) {
        const err = thrown(() => map(bad, "key")) as ActionError;
        expect(err).toMatchObject({ name: "ActionError", reason: "invalid", param: "key" });
        expect(asAppError(err).status).toBe(400);
      }
    }
  });
});
