// Shared pieces of the desktop suites: a server of their own (the shared one has no
// DESKTOP_IMAGES_DIR; the base image lives in the per-user cache that `desktopImagesDir`
// names, the app's `DEFAULT_IMAGES_DIR`, where `npm test` builds it), a client bound
// to it, PNG checks and host-side process scans.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { api, waitFor, type Target } from "./computers-fixtures";
import { decodePng } from "./png";

/** Desktops need Linux and root; elsewhere the desktop suites are skipped (and kind "desktop" answers 400). */
export const canRunDesktops = process.platform === "linux" && process.getuid?.() === 0;

export function desktopImagesDir(): string {
  return process.env.DESKTOP_IMAGES_DIR ?? path.join(os.homedir(), ".cache", "cabin", "desktop-images");
}

export interface DesktopServer {
  server: TestServer;
  a: Target;
  b: Target;
}

export async function startDesktopServer(env: Record<string, string> = {}): Promise<DesktopServer> {
  const images = desktopImagesDir();
  if (!existsSync(images) || !readdirSync(images).some((d) => existsSync(path.join(images, d, "manifest.json")))) {
    throw new Error(`No desktop base image under ${images}: run \`npm run desktop:image\` (npm test builds it)`);
  }
  const server = await startServer({ env: { DESKTOP_IMAGES_DIR: images, ...env } });
  const [keyA, keyB] = await Promise.all([createOrgKey(server, "Desktop A"), createOrgKey(server, "Desktop B")]);
  return { server, a: { base: server.url, key: keyA }, b: { base: server.url, key: keyB } };
}

export async function createDesktop(t: Target, body: Record<string, unknown> = {}) {
  const res = await api("POST", "/computers", { kind: "desktop", ...body }, t);
  if (res.status !== 200) throw new Error(`create desktop failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any> & { id: string };
}

export async function exec(t: Target, id: string, command: string, extra: Record<string, unknown> = {}) {
  const res = await api("POST", `/computers/${id}/exec/sync`, { command, ...extra }, t);
  if (res.status !== 200) throw new Error(`exec failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { stdout: string; stderr: string; exit_code: number; timed_out: boolean; truncated: boolean };
}

export async function screenshot(t: Target, id: string): Promise<Buffer> {
  const res = await api("POST", `/computers/${id}/screenshot`, { base64: true }, t);
  if (res.status !== 200 || res.body.status !== "success")
    throw new Error(`screenshot failed: ${res.status} ${JSON.stringify(res.body)}`);
  return Buffer.from(res.body.result.screenshot, "base64");
}

export async function desktopHealth(t: Target) {
  const res = await fetch(`${t.base}/api/health`);
  return ((await res.json()) as any).checks.sessions.desktop as Record<string, any>;
}

export async function waitTerminated(t: Target, id: string, timeoutMs = 20_000) {
  return waitFor(
    "terminated",
    async () => (await api("GET", `/computers/${id}`, undefined, t)).body,
    (s) => s.status === "terminated",
    timeoutMs,
    250,
  );
}

/** Width, height and the number of distinct colours among every 8th pixel of every 8th row. */
export function pngStats(png: Buffer): { width: number; height: number; colors: number } {
  const { width, height, channels, pixels } = decodePng(png);
  const colors = new Set<string>();
  for (let y = 0; y < height; y += 8)
    for (let x = 0; x < width; x += 8) {
      const at = (y * width + x) * channels;
      colors.add(pixels.subarray(at, at + channels).toString("hex"));
    }
  return { width, height, colors: colors.size };
}

/** Host processes that live in a nested PID namespace and run desktop programs (Xvfb, openbox, xterm, tini). */
export function desktopProgramsOnHost(): string[] {
  const names = new Set(["Xvfb", "openbox", "xterm", "tini"]);
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? "";
      const nspid = /^NSpid:\s+(.*)$/m.exec(status)?.[1].trim().split(/\s+/) ?? [];
      const state = /^State:\s+(\S)/m.exec(status)?.[1];
      if (names.has(name) && nspid.length > 1 && state !== "Z") found.push(`${pid}:${name}`);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** Overlay mounts (in any process's mount namespace) whose upper layer is under `dir`. */
export function overlayMountsUnder(dir: string): number {
  const seen = new Set<string>();
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      for (const line of readFileSync(`/proc/${pid}/mountinfo`, "utf8").split("\n")) {
        if (line.includes(" - overlay ") && line.includes(`upperdir=${dir}`)) seen.add(line.split(" ")[0] + line);
      }
    } catch {
      // exited meanwhile
    }
  }
  return seen.size;
}

/**
 * A desktop server of the suite's own: started before its tests, destroyed after.
 * The object is filled in by beforeAll, so read it inside tests only.
 */
export function useDesktopServer(env: Record<string, string> = {}): DesktopServer {
  const suite = {} as DesktopServer;
  beforeAll(async () => {
    Object.assign(suite, await startDesktopServer(env));
  });
  afterAll(async () => {
    await suite.server?.destroy();
  });
  return suite;
}
