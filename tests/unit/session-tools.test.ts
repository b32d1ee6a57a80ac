// @needs nothing
// The session page's tools, pure parts: the event timeline built from /events
// (pairing, collapsing, bounds) and the CDP snippets with their token's expiry.
import { describe, expect, it } from "vitest";
import { cdpSnippets, cdpTokenExpiry } from "@/components/session-tools/cdp-snippets";
import {
  applyTimelineEvent,
  relativeTime,
  TIMELINE_LIMIT,
  type TimelineEntry,
} from "@/components/session-tools/timeline-model";

const apply = (events: [string, Record<string, unknown>][], start: TimelineEntry[] = []) =>
  events.reduce((entries, [event, data]) => applyTimelineEvent(entries, { event, data }, 1_000), start);
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("event timeline", () => {
  it("pairs an action's request and response by request_id, with the duration and status", () => {
    const entries = apply([
      [
        "action_request",
        { request_id: "req_1", action: { type: "click", x: 5, y: 7 }, timestamp: "2026-01-01T00:00:00.000Z" },
      ],
      [
        "action_request",
        {
          request_id: "req_2",
          action: { type: "go_to_url", url: "http://127.0.0.1/" },
          timestamp: "2026-01-01T00:00:00.100Z",
        },
      ],
      ["action_response", { request_id: "req_1", status: "success", timestamp: "2026-01-01T00:00:00.250Z" }],
      [
        "action_response",
        { request_id: "req_2", status: "error", error_message: "net::ERR", timestamp: "2026-01-01T00:00:01.100Z" },
      ],
    ]);
    expect(
      entries.map((e) => e.kind === "action" && [e.requestId, e.action, e.status, e.durationMs, e.errorMessage]),
    ).toEqual([
      ["req_2", "go_to_url http://127.0.0.1/", "error", 1000, "net::ERR"],
      ["req_1", "click (5, 7)", "success", 250, undefined],
    ]);
  });

  it("closes the newest open request of a batch's shared request_id", () => {
    const entries = apply([
      [
        "action_request",
        { request_id: "b", action: { type: "type", text: "a" }, timestamp: "2026-01-01T00:00:00.000Z" },
      ],
      ["action_response", { request_id: "b", status: "success", timestamp: "2026-01-01T00:00:00.010Z" }],
      [
        "action_request",
        { request_id: "b", action: { type: "keypress", keys: ["Enter"] }, timestamp: "2026-01-01T00:00:00.020Z" },
      ],
    ]);
    expect(entries.map((e) => e.kind === "action" && e.status)).toEqual(["pending", "success"]);
    const done = apply(
      [["action_response", { request_id: "b", status: "success", timestamp: "2026-01-01T00:00:00.050Z" }]],
      entries,
    );
    expect(done.map((e) => e.kind === "action" && [e.action, e.status, e.durationMs])).toEqual([
      ["keypress Enter", "success", 30],
      ["type “a”", "success", 10],
    ]);
  });

  it("collapses exec output per request and records its exit code", () => {
    const entries = apply([
      ["exec_output", { request_id: "x", data: b64("hello\n"), is_stderr: false }],
      ["exec_output", { request_id: "y", data: b64("other\n"), is_stderr: false }],
      ["exec_output", { request_id: "x", data: b64("oops\n"), is_stderr: true }],
      ["exec_exit", { request_id: "x", exit_code: 3 }],
    ]);
    expect(entries).toHaveLength(2);
    const x = entries.find((e) => e.kind === "exec" && e.requestId === "x");
    expect(x).toMatchObject({ output: "hello\noops\n", stderrChunks: 1, bytes: 11, exitCode: 3 });
  });

  it("keeps the newest TIMELINE_LIMIT entries and marks the end of the session", () => {
    let entries: TimelineEntry[] = [];
    for (let i = 0; i < TIMELINE_LIMIT + 20; i++) {
      entries = applyTimelineEvent(
        entries,
        { event: "action_request", data: { request_id: `r${i}`, action: { type: "wait" } } },
        i,
      );
    }
    entries = applyTimelineEvent(entries, { event: "ended", data: { reason: "deleted" } }, 0);
    expect(entries).toHaveLength(TIMELINE_LIMIT);
    expect(entries[0]).toMatchObject({ kind: "ended", reason: "deleted" });
    expect(entries[1]).toMatchObject({ requestId: `r${TIMELINE_LIMIT + 19}` });
  });

  it("places replayed exec output and the end at their own time, and says a stopped command was stopped", () => {
    const entries = apply([
      ["exec_output", { request_id: "r1", data: b64("hi\n"), is_stderr: false, timestamp: "2026-01-01T00:00:05.000Z" }],
      ["exec_exit", { request_id: "r1", exit_code: -1, stopped: "by_caller", timestamp: "2026-01-01T00:00:09.000Z" }],
      ["ended", { reason: "deleted", timestamp: "2026-01-01T00:01:00.000Z" }],
    ]);
    expect(entries.map((e) => e.at)).toEqual([
      Date.parse("2026-01-01T00:01:00.000Z"),
      Date.parse("2026-01-01T00:00:05.000Z"),
    ]);
    expect(entries[1]).toMatchObject({ kind: "exec", exitCode: -1, stopped: "by_caller" });
  });

  it("shows Take control input: a click, and keys typed in a row as one entry", () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, "0")}.000Z`;
    const entries = apply([
      ["live_input", { input: "click", x: 10, y: 20, button: "left", timestamp: at(1) }],
      ["live_input", { input: "key", key: "h", timestamp: at(2) }],
      ["live_input", { input: "text", text: "ello", timestamp: at(2) }],
      ["live_input", { input: "key", key: "Enter", timestamp: at(3) }],
      ["live_input", { input: "key", key: "x", timestamp: at(30) }],
    ]);
    expect(entries.map((e) => (e.kind === "input" ? e.text : e.kind))).toEqual(["x", "hello⏎", "click at (10, 20)"]);
  });

  it("says how long ago in words", () => {
    expect(relativeTime(10_000, 12_000)).toBe("just now");
    expect(relativeTime(0, 42_000)).toBe("42 s ago");
    expect(relativeTime(0, 3 * 60_000 + 5_000)).toBe("3 min ago");
  });
});

describe("CDP snippets", () => {
  const url = "ws://127.0.0.1:3000/computers/comp_1/cdp?token=1900000000.abc";

  it("reads the token's expiry from the URL, and nothing from a URL without one", () => {
    expect(cdpTokenExpiry(url)?.toISOString()).toBe(new Date(1_900_000_000_000).toISOString());
    expect(cdpTokenExpiry("ws://127.0.0.1:3000/computers/comp_1/cdp")).toBeNull();
    expect(cdpTokenExpiry("not a url")).toBeNull();
  });

  it("fills the URL into Playwright, Puppeteer and Python code", () => {
    const byId = Object.fromEntries(cdpSnippets(url).map((s) => [s.id, s.code]));
    expect(byId.playwright).toContain(`chromium.connectOverCDP(${JSON.stringify(url)})`);
    expect(byId.playwright).toContain("browser.contexts()[0]");
    expect(byId.puppeteer).toContain(`puppeteer.connect({ browserWSEndpoint: ${JSON.stringify(url)}`);
    expect(byId.python).toContain(`connect_over_cdp('${url}')`);
  });
});
