// @needs server desktop
// The public Lightcone SDKs' desktop-only methods (debug, exec.sync, exec.create's NDJSON stream)
// and the action paths on a desktop, sent as their generated clients send them (sdk-surface-fixtures.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Target } from "./computers-fixtures";
import { canRunDesktops, startDesktopServer, type DesktopServer } from "./desktop-fixtures";
import {
  ExecLine,
  ExecSyncResponse,
  expectShape,
  sdkAction as action,
  sdkCall,
  sdkCreateSession as sdkCreate,
} from "./sdk-surface-fixtures";

describe.skipIf(!canRunDesktops)("the SDKs' desktop-only methods", () => {
  const s = {} as DesktopServer;
  let d: Required<Target>;
  let id = "";
  beforeAll(async () => {
    Object.assign(s, await startDesktopServer());
    d = s.a as Required<Target>;
    id = (await sdkCreate(d, { kind: "desktop" }, "python")).id;
  }, 600_000);
  afterAll(async () => {
    await s.server?.destroy();
  }, 120_000);

  it("debug: POST /debug and the debug action, buffered into result.debug_response", { timeout: 120_000 }, async () => {
    const viaPath = await action(d, {
      method: "POST",
      path: `/computers/${id}/debug`,
      body: { command: "echo out; echo err >&2", timeout_seconds: 120, max_output_length: 65536 },
    });
    expect(viaPath.result?.debug_response).toBe("out\nerr\n");
    const viaAction = await action(d, {
      method: "POST",
      path: `/computers/${id}/execute`,
      body: { action: { type: "debug", debug: { command: "printf 0123456789", max_output_length: 4 } } },
    });
    expect(viaAction.result?.debug_response).toBe("0123");
  });

  it("exec.sync and the exec.create NDJSON stream (Accept application/x-ndjson)", { timeout: 120_000 }, async () => {
    const sync = await sdkCall(d, {
      method: "POST",
      path: `/computers/${id}/exec/sync`,
      body: { command: "echo $GREETING from $(pwd)", cwd: "/tmp", env: { GREETING: "hello" }, timeout_seconds: 30 },
    });
    expect(sync.status).toBe(200);
    expect(expectShape(ExecSyncResponse, sync.body, "ExecSyncResponse")).toMatchObject({
      exit_code: 0,
      stdout: "hello from /tmp\n",
    });
    const stream = await sdkCall(d, {
      method: "POST",
      path: `/computers/${id}/exec`,
      accept: "application/x-ndjson",
      body: { command: "echo one; exit 3", timeout_seconds: 30 },
    });
    expect(stream.status).toBe(200);
    const lines = String(stream.body)
      .trim()
      .split("\n")
      .map((l) => expectShape(ExecLine, JSON.parse(l), "ExecCreateResponse"));
    expect(lines.at(-1)).toEqual({ type: "exit", code: 3 });
    expect(
      lines
        .filter((l) => l.type === "stdout")
        .map((l) => l.data)
        .join(""),
    ).toBe("one\n");
  });

  it("the action paths on a desktop, and delete", { timeout: 120_000 }, async () => {
    expect(
      String(
        (await action(d, { method: "POST", path: `/computers/${id}/screenshot`, body: { base64: true } })).result
          ?.screenshot,
      ),
    ).toMatch(/^iVBOR/);
    for (const [name, body] of [
      ["click", { x: 100, y: 100 }],
      ["type", { text: "a" }],
      ["hotkey", { keys: ["ctrl", "a"] }],
      ["key-down", { key: "shift" }],
      ["key-up", { key: "shift" }],
      ["scroll", { dx: 0, dy: 50, x: 10, y: 10 }],
    ] as const) {
      await action(d, { method: "POST", path: `/computers/${id}/${name}`, body });
    }
    expect((await sdkCall(d, { method: "DELETE", path: `/computers/${id}`, accept: "*/*" })).status).toBe(204);
  });
});
