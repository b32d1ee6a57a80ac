// @needs server chromium desktop
// First start (docs/operations.md "First start"): `npm start` serves while the desktop
// base image is still being built in the background. A server whose image directory
// holds a build in progress (a live build process and its progress.json, as buildImage
// writes them) answers a desktop create with 503 + retry-after naming the build, and
// shows the build's progress in /api/health; browser sessions work meanwhile.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageVersion, PROGRESS_FILE } from "@/lib/computers/desktop/image";
import { api, createSession } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";

let server: TestServer;
let key: string;
let builder: ChildProcess;
let imagesDir: string;

beforeAll(async () => {
  imagesDir = mkdtempSync(path.join(os.tmpdir(), "cabin-images-"));
  // Stands in for the build's process only by being alive: the server checks /proc/<pid>.
  builder = spawn("sleep", ["600"], { stdio: "ignore" });
  const work = path.join(imagesDir, `.build-${imageVersion()}-${builder.pid}`);
  mkdirSync(work);
  writeFileSync(
    path.join(work, PROGRESS_FILE),
    JSON.stringify({
      version: imageVersion(),
      pid: builder.pid,
      started_at: new Date(Date.now() - 42_000).toISOString(),
      step: "I: extracting archives...",
    }),
  );
  server = await startServer({ env: { DESKTOP_IMAGES_DIR: imagesDir } });
  key = await createOrgKey(server, "first start");
}, 120_000);

afterAll(async () => {
  builder?.kill();
  await server?.stop();
  await server?.destroy();
  rmSync(imagesDir, { recursive: true, force: true });
});

describe("a server started before its desktop image is built", () => {
  it("answers a desktop create with 503 and retry-after, naming the build", async () => {
    const res = await api("POST", "/computers", { kind: "desktop" }, { base: server.url, key });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(res.body.error.code).toBe("unavailable");
    expect(res.body.error.message).toMatch(
      /desktop base image .* is being built \(\d+ s so far; now: I: extracting archives\.\.\.\)/,
    );
  });

  it("reports the build in /api/health and serves browser sessions meanwhile", async () => {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as any;
    expect(health.checks.sessions.desktop.ok).toBe(false);
    expect(health.checks.sessions.desktop.image_build).toMatchObject({
      pid: builder.pid,
      step: "I: extracting archives...",
    });
    const browser = await createSession({}, { base: server.url, key });
    expect(browser.status).toBe("ready");
    expect((await api("DELETE", `/computers/${browser.id}`, undefined, { base: server.url, key })).status).toBe(204);
  });

  it("says the image is missing (a 400 naming kind) once no build is running", async () => {
    builder.kill();
    await new Promise((resolve) => builder.once("exit", resolve));
    const res = await api("POST", "/computers", { kind: "desktop" }, { base: server.url, key });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/is not built on this server/);
  });
});
