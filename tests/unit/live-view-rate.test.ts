// @needs nothing
// The dashboard viewer's fps choice: what it can draw, within the /ws range it uses.
import { describe, expect, it } from "vitest";
import { DrawTimer, drawableFps, shouldAskLower, VIEWER_MAX_FPS, withFps } from "@/components/session/live-view-rate";

describe("live viewer rate", () => {
  it("asks for the default when drawing is quick or not yet timed", () => {
    expect(drawableFps(0)).toBe(VIEWER_MAX_FPS);
    expect(drawableFps(4)).toBe(VIEWER_MAX_FPS);
  });

  it("asks for fewer frames when each takes long to draw, never below 2", () => {
    expect(drawableFps(50)).toBe(10);
    expect(drawableFps(100)).toBe(5);
    expect(drawableFps(5000)).toBe(2);
  });

  it("reconnects only for a rate well below the asked one", () => {
    expect(shouldAskLower(15, 14)).toBe(false);
    expect(shouldAskLower(15, 10)).toBe(true);
  });

  it("sets fps on the session's ws URL and keeps its token", () => {
    const url = withFps("wss://cabin.example/computers/c1/ws?token=abc", 5);
    expect(new URL(url).searchParams.get("fps")).toBe("5");
    expect(new URL(url).searchParams.get("token")).toBe("abc");
    expect(new URL(withFps(url, 12)).searchParams.getAll("fps")).toEqual(["12"]);
  });

  it("averages draw times", () => {
    const timer = new DrawTimer();
    timer.add(10);
    timer.add(30);
    expect(timer.count).toBe(2);
    expect(timer.averageMs).toBe(20);
  });
});
