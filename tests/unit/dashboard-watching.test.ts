// @needs nothing
// The pure rules behind the session page (docs/watching-sessions.md): how often watching
// keeps a session alive, how the screen is sized, when a countdown turns amber and red,
// which URLs the open-tab field takes, who is offered Revoke, and end reasons in words.
import { describe, expect, it } from "vitest";
import { canRevoke } from "@/components/keys/key-table";
import { openTabUrlProblem } from "@/components/session/tab-strip";
import { canvasSize } from "@/components/session/screen-fit";
import { keepAliveEveryMs } from "@/components/session/use-watch-keep-alive";
import { countdownUrgency } from "@/components/sessions/countdown";
import { endLabel, endSentence } from "@/components/sessions/end-reason";

describe("session page rules", () => {
  it("keeps alive every third of the idle timeout, between 2 s and 30 s", () => {
    expect(keepAliveEveryMs(20)).toBeCloseTo(6_667, 0);
    expect(keepAliveEveryMs(3)).toBe(2_000);
    expect(keepAliveEveryMs(3600)).toBe(30_000);
  });

  it("fits the frame to the stage's width, within a height, or draws it 1:1 at the device pixel ratio", () => {
    const frame = { width: 1280, height: 720 };
    expect(canvasSize("fit", frame, { width: 1000, height: 0 }, 1)).toEqual({ width: 1000, height: 562.5 });
    expect(canvasSize("fit", frame, { width: 1264, height: 700 }, 1, 360)).toEqual({ width: 640, height: 360 });
    expect(canvasSize("actual", frame, { width: 300, height: 0 }, 2)).toEqual({ width: 640, height: 360 });
    expect(canvasSize("fit", frame, { width: 0, height: 0 }, 1)).toEqual({ width: 0, height: 0 });
  });

  it("turns a countdown amber under 30 s and red under 10 s", () => {
    expect([45, 30, 29, 10, 9, 0].map(countdownUrgency)).toEqual(["calm", "calm", "soon", "soon", "now", "now"]);
  });

  it("takes an empty or http(s) URL and names anything else", () => {
    expect(openTabUrlProblem("")).toBeNull();
    expect(openTabUrlProblem("https://example.com/")).toBeNull();
    expect(openTabUrlProblem("data:text/html,hi")).toContain("data:");
    expect(openTabUrlProblem("example.com")).toContain("full URL");
  });

  it("offers Revoke to owners and admins on every key, to a member only on their own", () => {
    const mine = { created_by: { id: "u1", name: "M", email: "m@x" } };
    const theirs = { created_by: { id: "u2", name: "O", email: "o@x" } };
    const member = { role: "member" as const, user: { id: "u1", email: "m@x", name: "M" } };
    expect(canRevoke(member, mine)).toBe(true);
    expect(canRevoke(member, theirs)).toBe(false);
    expect(canRevoke({ ...member, role: "admin" }, theirs)).toBe(true);
    expect(canRevoke(undefined, mine)).toBe(false);
  });

  it("says why a session ended in words", () => {
    expect(endLabel("deleted")).toBe("stopped");
    expect(endLabel("inactivity")).toBe("idle timeout");
    expect(endLabel("something_new")).toBe("something new");
    expect(endSentence(null)).toContain("not recorded");
  });
});
