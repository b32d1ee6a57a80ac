// A desktop's side of session files (docs/files.md "Desktops"): an upload is written to
// /workspace/uploads/<path>/<name>, owned by the desktop user; files saved in the user's
// ~/Downloads (where the desktop's Chromium saves) become the session's downloads.
//
// Every read and write inside the desktop runs inside its namespaces as the desktop user
// (enterArgv), never through host paths: the user may replace any folder with a symlink,
// which a host-side open would follow out of the desktop. Bytes stream through the
// program's stdin or stdout, never whole in memory. The upper layer's ~/Downloads is only
// looked at (lstat, no reading) as a cheap signal that the folder changed.
import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { lstat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { BrowserContext } from "playwright-core";
import { pipeline } from "node:stream/promises";
import type { FilesCapability } from "@/lib/computers/driver";
import { enterArgv, hostEnv, killGroup } from "@/lib/computers/desktop/enter";
import { DESKTOP_HOME, DESKTOP_UID } from "@/lib/computers/desktop/image";
import { recordDownload } from "@/lib/computers/files/record-download";
import { findComputerById } from "@/lib/computers/sessions/store";
import { getLogger } from "@/lib/logger";

export const UPLOADS_DIR = "/workspace/uploads";
export const DOWNLOADS_DIR = `${DESKTOP_HOME}/Downloads`;
const POLL_MS = 1_000;
const STEP_TIMEOUT_MS = 120_000;
// A file younger than this may still be being written (a program that does not rename into place).
const SETTLE_MS = 1_000;

interface Found {
  name: string;
  size: number;
  mtimeMs: number;
}

export class DesktopFiles implements FilesCapability {
  private timer: NodeJS.Timeout | null = null;
  private collecting: Promise<void> = Promise.resolve();
  private readonly seen = new Map<string, string>();
  private lastSignal = "";
  private closed = false;

  constructor(
    private readonly pid1: number,
    private readonly marker: string,
    private readonly upper: string,
    /** The session's id (a standby desktop gets one when it is handed out). */
    private readonly sessionId: () => string,
  ) {}

  private organizationOf: { id: string; organizationId: string } | null = null;

  /** Whose downloads these are, from the session's row (null before it exists). */
  private async owner(): Promise<{ id: string; organizationId: string } | null> {
    const id = this.sessionId();
    if (this.organizationOf?.id === id) return this.organizationOf;
    const row = await findComputerById(id);
    this.organizationOf = row ? { id, organizationId: row.organizationId } : null;
    return this.organizationOf;
  }

  /** Runs `argv` inside the desktop; `stdin` streams in, `stdout` (when given) takes its output as it comes. */
  private inside(
    script: string,
    args: string[],
    io: { asRoot?: boolean; stdin?: Readable; stdout?: (out: Readable) => Promise<unknown> } = {},
  ): Promise<{ code: number; stderr: string; output?: unknown }> {
    const [bin, ...rest] = enterArgv(this.pid1, ["sh", "-c", script, "sh", ...args], { asRoot: io.asRoot });
    const child = spawn(bin!, rest, { stdio: ["pipe", "pipe", "pipe"], detached: true, env: hostEnv(this.marker) });
    const timer = setTimeout(() => killGroup(child), STEP_TIMEOUT_MS);
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.stdin!.on("error", () => {});
    const feeding = io.stdin ? pipeline(io.stdin, child.stdin!) : (child.stdin!.end(), Promise.resolve());
    const reading = io.stdout ? io.stdout(child.stdout!) : (child.stdout!.resume(), Promise.resolve(undefined));
    const exited = new Promise<number>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    return Promise.all([feeding, reading, exited])
      .then(([, output, code]) => ({ code, stderr: stderr.trim(), output }))
      .catch((err) => {
        killGroup(child);
        throw err;
      })
      .finally(() => clearTimeout(timer));
  }

  /** Writes the file's bytes to /workspace/uploads/<folder…>/<name>; resolves with the path inside the desktop. */
  async put(input: { name: string; folder: string[]; sourcePath: string }): Promise<string> {
    const prepare = `mkdir -p ${UPLOADS_DIR} && chown ${DESKTOP_UID}:${DESKTOP_UID} /workspace ${UPLOADS_DIR}`;
    const root = await this.inside(prepare, [], { asRoot: true });
    if (root.code !== 0) throw new Error(`could not make ${UPLOADS_DIR}: ${root.stderr || `exit ${root.code}`}`);
    const dir = path.posix.join(UPLOADS_DIR, ...input.folder);
    // Written beside its place and renamed, so a program never sees half a file.
    const write =
      'mkdir -p -- "$1" && cat > "$1/.$2.part" && chmod 644 "$1/.$2.part" && mv -f -- "$1/.$2.part" "$1/$2"';
    const res = await this.inside(write, [dir, input.name], { stdin: createReadStream(input.sourcePath) });
    if (res.code !== 0) throw new Error(`could not write ${dir}/${input.name}: ${res.stderr || `exit ${res.code}`}`);
    return path.posix.join(dir, input.name);
  }

  /** Starts watching ~/Downloads (made if missing, so it lives in the session's own layer). */
  start() {
    if (this.timer || this.closed) return;
    void this.inside('mkdir -p -- "$1"', [DOWNLOADS_DIR]).catch(() => {});
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
  }

  private async poll() {
    const signal = await lstat(path.join(this.upper, DOWNLOADS_DIR))
      .then((s) => `${s.mtimeMs}:${s.ino}`)
      .catch(() => "none");
    if (signal === this.lastSignal && !this.unsettled) return;
    this.lastSignal = signal;
    await this.collect();
  }

  private unsettled = false;

  /** Records every finished file of ~/Downloads not recorded yet (also at the session's end). */
  collect(final = false): Promise<void> {
    this.collecting = this.collecting
      .then(() => this.collectOnce(final))
      .catch((err) => {
        getLogger().warn({ err, id: this.sessionId() }, "could not collect the desktop's downloads");
      });
    return this.collecting;
  }

  private async collectOnce(final: boolean) {
    const owner = await this.owner();
    if (!owner) return;
    const list = await this.inside(
      "cd -- \"$1\" 2>/dev/null || exit 0; find . -maxdepth 1 -type f ! -name '*.crdownload' ! -name '.*' " +
        "-printf '%s\\t%T@\\t%f\\0'",
      [DOWNLOADS_DIR],
      { stdout: (out) => readAll(out, 1024 * 1024) },
    );
    const found = parseListing(String(list.output ?? ""));
    const now = Date.now();
    this.unsettled = false;
    for (const file of found) {
      const key = `${file.size}:${file.mtimeMs}`;
      if (this.seen.get(file.name) === key) continue;
      if (!final && now - file.mtimeMs < SETTLE_MS) {
        this.unsettled = true;
        continue;
      }
      this.seen.set(file.name, key);
      await this.inside('exec cat -- "$1/$2"', [DOWNLOADS_DIR, file.name], {
        stdout: (out) => recordDownload({ session: owner, name: file.name, source: out }),
      });
    }
  }

  /** The last collection before the desktop goes (its files are still there), then no more. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.collect(true);
    this.closed = true;
  }
}

async function readAll(stream: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (size < max) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** find's `%s\t%T@\t%f\0` lines. */
export function parseListing(text: string): Found[] {
  return text
    .split("\0")
    .filter(Boolean)
    .flatMap((line) => {
      const [size, mtime, ...rest] = line.split("\t");
      const name = rest.join("\t");
      if (!name || !Number.isFinite(Number(size)) || !Number.isFinite(Number(mtime))) return [];
      return [{ name, size: Number(size), mtimeMs: Math.round(Number(mtime) * 1000) }];
    });
}

/**
 * Lets the desktop's Chromium save downloads into ~/Downloads, as a person's would. Playwright
 * launched it refusing them (`acceptDownloads: false`: its own folder is on the host, which the
 * desktop cannot see); the path here is the desktop's own, where Chromium runs.
 */
export async function allowDesktopDownloads(context: BrowserContext): Promise<void> {
  const browser = context.browser();
  if (!browser) return;
  const session = await browser.newBrowserCDPSession();
  // Held for Chromium's life: a detached session's download settings would be reset.
  await session.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: DOWNLOADS_DIR });
}
