// Running programs inside a desktop's namespaces from the host: nsenter into the
// session's user, mount, network, PID and UTS namespaces and its root, then setpriv to the
// desktop user (or stay "root", which inside is an unprivileged host id).
// Output is bounded, every call has a timeout, and a timeout kills the whole
// process group (the program and its children inside the namespace).
import { spawn, type ChildProcess } from "node:child_process";
import { DESKTOP_HOME, DESKTOP_UID, DESKTOP_USER } from "@/lib/computers/desktop/image";
import { desktopMarker, MARKER_VAR } from "@/lib/computers/desktop/marker";

export const DISPLAY = ":0";
export const XAUTHORITY = `/run/user/${DESKTOP_UID}/Xauthority`;
const PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * The environment of host-side helpers: a PATH and the marker that finds leftovers
 * (`cleanOrphans`), made from the session's directory `sessionDir` (`desktopMarker`).
 */
export function hostEnv(sessionDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH, [MARKER_VAR]: desktopMarker(sessionDir), ...extra } as unknown as NodeJS.ProcessEnv;
}

export interface EnterOptions {
  /** Run as the desktop's root (still unprivileged on the host) instead of the desktop user. */
  asRoot?: boolean;
  cwd?: string;
  env?: Record<string, string>;
}

/** The argv that runs `command` inside the sandbox whose init is host pid `pid1`. */
export function enterArgv(pid1: number, command: string[], options: EnterOptions = {}): string[] {
  const home = options.asRoot ? "/root" : DESKTOP_HOME;
  const env = {
    HOME: home,
    USER: options.asRoot ? "root" : DESKTOP_USER,
    LOGNAME: options.asRoot ? "root" : DESKTOP_USER,
    PATH,
    LANG: "C.UTF-8",
    SHELL: "/bin/bash",
    DISPLAY,
    XAUTHORITY,
    ...options.env,
  };
  const user = options.asRoot
    ? []
    : ["setpriv", `--reuid=${DESKTOP_UID}`, `--regid=${DESKTOP_UID}`, "--init-groups", "--"];
  return [
    // nsenter's --wd=DIR resolves DIR on the host; `env -C` changes directory inside.
    "nsenter",
    "-t",
    String(pid1),
    "-U",
    "-m",
    "-n",
    "-p",
    "-u",
    "-r",
    "-w",
    "--",
    ...user,
    "env",
    "-i",
    "-C",
    options.cwd ?? home,
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    ...command,
  ];
}

/** A long-running program inside the sandbox (Xvfb, openbox, xterm); its own process group on the host. */
export function spawnInside(pid1: number, command: string[], options: EnterOptions & { marker: string }): ChildProcess {
  const [bin, ...args] = enterArgv(pid1, command, options);
  return spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], detached: true, env: hostEnv(options.marker) });
}

export interface RunResult {
  stdout: Buffer;
  stderr: Buffer;
  /** Exit code; 128 + signal number when killed by a signal. */
  code: number;
  timedOut: boolean;
  truncated: boolean;
}

export interface RunOptions extends EnterOptions {
  timeoutMs: number;
  maxOutputBytes?: number;
  input?: Buffer | string;
  marker: string;
}

const EXIT_GRACE_MS = 250;
const SIGNALS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGKILL: 9,
  SIGTERM: 15,
  SIGPIPE: 13,
  SIGABRT: 6,
  SIGSEGV: 11,
};

export type OutputStream = "stdout" | "stderr";

export interface SuperviseOptions extends EnterOptions {
  timeoutMs: number;
  input?: Buffer | string;
  marker: string;
  /** Every chunk of output, in the order the pipes delivered it. */
  onOutput: (stream: OutputStream, chunk: Buffer) => void;
  /** Aborting kills the process group (a streaming client went away). */
  signal?: AbortSignal;
}

export interface SupervisedExit {
  /** Exit code; 128 + signal number when killed by a signal. */
  code: number;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * Runs a command inside the sandbox to its end, its timeout or an abort, handing each
 * output chunk to `onOutput`; a timeout or an abort kills the whole process group.
 * runInside (collected output) and the exec stream are both built on it.
 */
export function superviseInside(pid1: number, command: string[], options: SuperviseOptions): Promise<SupervisedExit> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return resolve({ code: -1, timedOut: false, aborted: true });
    const [bin, ...args] = enterArgv(pid1, command, options);
    const child = spawn(bin, args, {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      env: hostEnv(options.marker),
    });
    let timedOut = false;
    let aborted = false;
    child.stdout!.on("data", (chunk: Buffer) => options.onOutput("stdout", chunk));
    child.stderr!.on("data", (chunk: Buffer) => options.onOutput("stderr", chunk));
    child.stdin!.on("error", () => {}); // the program may exit without reading its input
    child.stdin!.end(options.input ?? "");
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup(child);
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    child.on("error", (e) => {
      cleanup();
      reject(e);
    });
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      cleanup();
      resolve({ code: code ?? 128 + (signal ? (SIGNALS[signal] ?? 1) : 1), timedOut, aborted });
    };
    child.on("close", finish);
    // A program that leaves a background child holding its stdout (`app &`) has still
    // finished: after a short grace for the last output, stop waiting for the pipes.
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        finish(code, signal);
      }, EXIT_GRACE_MS).unref();
    });
  });
}

/** Runs a command inside the sandbox to its end (or its timeout) and collects bounded output. */
export async function runInside(pid1: number, command: string[], options: RunOptions): Promise<RunResult> {
  const max = options.maxOutputBytes ?? 64 * 1024 * 1024;
  const chunks: Record<OutputStream, Buffer[]> = { stdout: [], stderr: [] };
  const size: Record<OutputStream, number> = { stdout: 0, stderr: 0 };
  let truncated = false;
  const collect = (stream: OutputStream, chunk: Buffer) => {
    const room = max - size[stream];
    if (room <= 0) return void (truncated = true);
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) truncated = true;
    chunks[stream].push(part);
    size[stream] += part.length;
  };
  const exit = await superviseInside(pid1, command, { ...options, onOutput: collect });
  return {
    stdout: Buffer.concat(chunks.stdout),
    stderr: Buffer.concat(chunks.stderr),
    code: exit.code,
    timedOut: exit.timedOut,
    truncated,
  };
}

/** SIGKILL to the child's process group: nsenter, and what it started inside, unless that called setsid. */
export function killGroup(child: ChildProcess) {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}
