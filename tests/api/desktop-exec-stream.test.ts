// @needs server chromium desktop
// POST /computers/{id}/exec on a real desktop (docs/contract.md "Streams"):
// NDJSON output in the order produced, one exit line (-1 on timeout), errors as a
// single line of an HTTP 200, and a client disconnect that kills the command.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createSession, waitFor } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, startDesktopServer, type DesktopServer } from "./desktop-fixtures";
import { ndjson, sse, type SseEvent } from "./stream-client";

describe.skipIf(!canRunDesktops)("desktop exec stream", () => {
  let s: DesktopServer;
  let id: string;
  beforeAll(async () => {
    // The smallest output limit, so truncation is cheap to show; every other case stays below it.
    s = await startDesktopServer({ DESKTOP_EXEC_MAX_OUTPUT_BYTES: "1024" });
    id = (await createDesktop(s.a)).id;
  });
  afterAll(async () => {
    if (id) await api("DELETE", `/computers/${id}`, undefined, s.a);
    await s?.server.destroy();
  });

  it("streams stdout and stderr lines in the order produced, then the exit code", async () => {
    // The pauses make the order observable: two pipes read at once have no order of their own.
    const stream = await ndjson(s.a, `/computers/${id}/exec`, {
      command: "echo a; sleep 0.3; echo b >&2; sleep 0.3; echo c",
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const lines = await stream.rest();
    expect(lines).toEqual([
      { type: "stdout", data: "a\n" },
      { type: "stderr", data: "b\n" },
      { type: "stdout", data: "c\n" },
      { type: "exit", code: 0 },
    ]);
  });

  it("delivers output while the command still runs, and its exit code", async () => {
    // The command cannot end before the test, having read its first line, creates the file it waits for.
    const stream = await ndjson(s.a, `/computers/${id}/exec`, {
      command: 'echo "$GREETING from $(pwd)"; while [ ! -e /tmp/exec-go ]; do sleep 0.1; done; exit 3',
      cwd: "/tmp",
      env: { GREETING: "hi" },
    });
    expect(await stream.next()).toEqual({ type: "stdout", data: "hi from /tmp\n" });
    expect((await exec(s.a, id, "touch /tmp/exec-go")).exit_code).toBe(0);
    expect(await stream.rest()).toEqual([{ type: "exit", code: 3 }]);
  });

  it("stops forwarding output past DESKTOP_EXEC_MAX_OUTPUT_BYTES, then still sends the exit line", async () => {
    const stream = await ndjson(s.a, `/computers/${id}/exec`, {
      command: "head -c 3000 /dev/zero | tr '\\0' x; echo; echo late >&2; exit 5",
    });
    const lines = await stream.rest();
    expect(lines.at(-1)).toEqual({ type: "exit", code: 5 });
    const output = lines.slice(0, -1);
    expect(output.every((l) => l.type === "stdout")).toBe(true);
    expect(output.map((l) => l.data).join("")).toBe("x".repeat(1024));
  });

  it("counts streamed output as activity", async () => {
    const started = Date.now();
    const stream = await ndjson(s.a, `/computers/${id}/exec`, {
      command: "for i in 1 2 3; do echo $i; sleep 0.6; done",
    });
    await stream.until((l) => l.type === "stdout" && l.data === "3\n");
    // The call is activity when it starts; only the output 1.2 s later can move it past started + 1 s.
    const lastActivity = async () =>
      Date.parse((await api("GET", `/computers/${id}`, undefined, s.a)).body.last_activity_at);
    await waitFor("streamed output to count as activity", lastActivity, (at) => at >= started + 1000, 5000, 100);
    expect(await stream.rest()).toEqual([{ type: "exit", code: 0 }]);
  });

  it("ends a command past its timeout with exit code -1, and its process with it", async () => {
    const stream = await ndjson(s.a, `/computers/${id}/exec`, {
      command: "echo go; sleep 31; echo late",
      timeout_seconds: 1,
    });
    expect(await stream.rest()).toEqual([
      { type: "stdout", data: "go\n" },
      { type: "exit", code: -1 },
    ]);
    // The timed-out command's sleep is gone too (the brackets keep pgrep from finding its own command line).
    const left = await waitFor(
      "the timed-out command's process to end",
      async () => (await exec(s.a, id, "pgrep -f 'sleep [3]1' || echo none")).stdout,
      (out) => out === "none\n",
    );
    expect(left).toBe("none\n");
  });

  it("answers a bad body, a foreign session and an unknown one with one error line in an HTTP 200", async () => {
    for (const [body, code] of [
      [{}, "invalid_request"],
      [{ command: "true", timeout_secs: 5 }, "invalid_request"],
      ["{not json", "invalid_json"],
    ] as const) {
      const stream = await ndjson(s.a, `/computers/${id}/exec`, body);
      expect(stream.status).toBe(200);
      const lines = await stream.rest();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ type: "error", code });
      expect(lines[0].message).toEqual(expect.any(String));
    }
    const foreign = await (await ndjson(s.b, `/computers/${id}/exec`, { command: "true" })).rest();
    expect(foreign).toEqual([expect.objectContaining({ type: "error", code: "not_found" })]);
    const unknown = await (await ndjson(s.a, `/computers/comp_nope/exec`, { command: "true" })).rest();
    expect(unknown).toEqual([expect.objectContaining({ type: "error", code: "not_found" })]);
    // Unauthenticated is still the API's JSON 401.
    const anonymous = await api("POST", `/computers/${id}/exec`, { command: "true" }, { base: s.a.base, key: "wrong" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("unauthorized");
  });

  it("answers a browser session and a terminated desktop with one error line", async () => {
    const browser = await createSession({}, s.a);
    try {
      const lines = await (await ndjson(s.a, `/computers/${browser.id}/exec`, { command: "true" })).rest();
      expect(lines).toEqual([expect.objectContaining({ type: "error", code: "invalid_request" })]);
      expect(lines[0].message).toMatch(/desktop/);
    } finally {
      await api("DELETE", `/computers/${browser.id}`, undefined, s.a);
    }
    const ended = await createDesktop(s.a);
    await api("DELETE", `/computers/${ended.id}`, undefined, s.a);
    const lines = await (await ndjson(s.a, `/computers/${ended.id}/exec`, { command: "true" })).rest();
    expect(lines).toEqual([expect.objectContaining({ type: "error", code: "conflict" })]);
  });

  it("kills the command's process group when the client disconnects", async () => {
    // Anchored, so neither the streamed shell nor the one running pgrep matches.
    const running = async () => (await exec(s.a, id, "pgrep -f '^sleep 3127$' || true")).stdout.trim();
    const stream = await ndjson(s.a, `/computers/${id}/exec`, {
      command: "echo started; sleep 3127 & sleep 3127; wait",
    });
    expect(await stream.next()).toEqual({ type: "stdout", data: "started\n" });
    // The shell prints before it has forked the sleeps, so wait until both run; then "gone" below means killed.
    await waitFor("both sleeps to run", running, (pids) => pids.split("\n").filter(Boolean).length === 2, 10_000, 100);
    stream.abort();
    await waitFor("the command's processes to be killed", running, (pids) => pids === "", 10_000, 100);
  });

  it("puts exec output and exit, streamed and sync, on the session's events with the request id", async () => {
    const events = await sse(s.a, `/computers/${id}/events`);
    expect(await events.next()).toEqual({ event: "comment", data: "subscribed" });
    const of = (requestId: string) => (e: SseEvent) => e.data?.request_id === requestId;
    const decoded = (list: SseEvent[]) =>
      list
        .filter((e) => e.event === "exec_output")
        .map((e) => [Buffer.from(e.data.data, "base64").toString(), e.data.is_stderr]);

    const stream = await ndjson(s.a, `/computers/${id}/exec`, { command: "echo out; sleep 0.2; echo err >&2; exit 4" });
    const streamId = stream.headers.get("x-request-id")!;
    expect(await stream.rest()).toContainEqual({ type: "exit", code: 4 });
    const streamed = (await events.until((e) => e.event === "exec_exit" && of(streamId)(e))).filter(of(streamId));
    expect(decoded(streamed)).toEqual([
      ["out\n", false],
      ["err\n", true],
    ]);
    // Numbered for replay (an SSE id), and naming its command so a late reader knows what ended.
    expect(streamed.at(-1)).toEqual({
      event: "exec_exit",
      id: expect.stringMatching(/^\d+$/),
      data: {
        request_id: streamId,
        exit_code: 4,
        command: "echo out; sleep 0.2; echo err >&2; exit 4",
        timestamp: expect.any(String),
      },
    });

    const sync = await api("POST", `/computers/${id}/exec/sync`, { command: "echo synced" }, s.a);
    const syncId = sync.headers.get("x-request-id")!;
    const synced = (await events.until((e) => e.event === "exec_exit" && of(syncId)(e))).filter(of(syncId));
    expect(decoded(synced)).toEqual([["synced\n", false]]);
    expect(synced.at(-1)?.data.exit_code).toBe(0);
    events.abort();
  });
});
