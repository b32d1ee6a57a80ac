// @needs nothing
// Agent task requests become typed commands at the edge (lib/agent/schema.ts): the wire's aliases settle into
// one field, bodies are refused with the 400 that names the field, and an unknown dashboard control is a 404
// before its body is read.
import { describe, expect, it } from "vitest";
import { parseHandoff, parseResume, parseTaskControl, parseTaskStart } from "@/lib/agent/schema";
import { thrownAppError } from "./thrown-app-error";

describe("parseTaskStart", () => {
  it("names the start's fields in the domain's words, the SDK's client metadata left out", () => {
    expect(
      parseTaskStart({
        instruction: "  find the price  ",
        max_steps: 7,
        start_url: "http://127.0.0.1:9/",
        viewport_width: 800,
        computer_id: "comp_1",
        on_missing_computer: "fail",
        idempotency_key: "k1",
        agent_type: "ignored",
      }),
    ).toMatchObject({
      instruction: "find the price",
      maxSteps: 7,
      startUrl: "http://127.0.0.1:9/",
      viewport: { width: 800, height: undefined },
      computerId: "comp_1",
      onMissingComputer: "fail",
      idempotencyKey: "k1",
    });
  });

  it("settles the wire's aliases: save_session is persistent, keep_alive keeps the session", () => {
    expect(parseTaskStart({ instruction: "x", save_session: true })).toMatchObject({ persistent: true });
    expect(parseTaskStart({ instruction: "x", persistent: false, save_session: true }).persistent).toBe(false);
    expect(parseTaskStart({ instruction: "x", keep_alive: true, terminate_on_completion: true })).toMatchObject({
      terminateOnCompletion: false,
    });
    expect(parseTaskStart({ instruction: "x", terminate_on_completion: false }).terminateOnCompletion).toBe(false);
  });

  it("refuses a bad field with a 400 naming it", () => {
    const err = thrownAppError(() => parseTaskStart({ instruction: "x", max_steps: 0 }));
    expect([err.status, err.param]).toEqual([400, "max_steps"]);
    expect(thrownAppError(() => parseTaskStart({})).param).toBe("instruction");
  });

  it("takes the screen sizes a session's display takes, and refuses one the session would refuse", () => {
    expect(parseTaskStart({ instruction: "x", viewport_width: 320, viewport_height: 240 }).viewport).toEqual({
      width: 320,
      height: 240,
    });
    const narrow = thrownAppError(() => parseTaskStart({ instruction: "x", viewport_width: 300 }));
    expect([narrow.status, narrow.param, narrow.message]).toEqual([
      400,
      "viewport_width",
      "Invalid value for 'viewport_width': viewport_width must be at least 320",
    ]);
    expect(thrownAppError(() => parseTaskStart({ instruction: "x", viewport_height: 2161 })).param).toBe(
      "viewport_height",
    );
  });
});

describe("parseTaskControl", () => {
  it("makes each control typed, its body checked", () => {
    expect(parseTaskControl("pause", { anything: 1 })).toEqual({ action: "pause" });
    expect(parseTaskControl("stop", {})).toEqual({ action: "stop" });
    expect(parseTaskControl("resume", {})).toEqual({ action: "resume" });
    expect(parseTaskControl("resume", { note: " done " })).toEqual({ action: "resume", note: "done" });
    expect(parseTaskControl("messages", { message: "hi" })).toEqual({ action: "messages", message: "hi" });
    expect(parseTaskControl("handoff", { reason: "a code" })).toEqual({ action: "handoff", reason: "a code" });
  });

  it("answers an unknown control with a 404 before reading its body, and a bad body with a 400", () => {
    const unknown = thrownAppError(() => parseTaskControl("reboot", null));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toMatch(/pause, resume, stop, messages or handoff/);
    expect(thrownAppError(() => parseTaskControl("messages", {})).param).toBe("message");
    expect(thrownAppError(() => parseTaskControl("handoff", null)).param).toBe("reason");
  });

  it("reads a JSON null body of a hand-off or a resume as an empty one", () => {
    expect(thrownAppError(() => parseHandoff(null)).message).toMatch(/reason is required/);
    expect(parseResume(null)).toEqual({});
  });
});
