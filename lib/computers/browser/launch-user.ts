// Who runs the pool's Chromium, and with which sandbox (docs/security.md "Chromium sandbox": untrusted pages never in a
// root browser
// without its sandbox when the host allows better).
//
// Chromium refuses its sandbox as root, so a root server launches it through a small wrapper that hands the
// profile Playwright made to BROWSER_USER (a system user, created when missing) and drops to it with setpriv;
// Chromium's own sandbox (user namespaces and seccomp-bpf) is then on. A server that is not root runs Chromium
// as itself with the sandbox on. When that cannot start (no setpriv or useradd, no user namespaces) or the
// operator sets BROWSER_SANDBOX=off, ChromiumLauncher launches as before with --no-sandbox and logs why
// (`sandboxFallback`); pool stats and /api/health name the mode in use.
//
// The browser gets a minimal environment (`childProcessEnvironment`): the server's holds its secrets (auth secret,
// database URL, upstream keys), and a process of the browser's user could read them from /proc/PID/environ.
import { execFileSync } from "node:child_process";
import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/env";

export type SandboxMode = "unprivileged-user" | "sandbox" | "off";

export interface LaunchPlan {
  executablePath: string;
  /** Playwright adds --no-sandbox when this is false. */
  chromiumSandbox: boolean;
  mode: SandboxMode;
}

const SETPRIV = "/usr/bin/setpriv";

/** Chromium without its sandbox: the fallback, and what BROWSER_SANDBOX=off asks for. */
export function unsandboxedPlan(chromiumPath: string): LaunchPlan {
  return { executablePath: chromiumPath, chromiumSandbox: false, mode: "off" };
}

/** The sandboxed launch for this host, or a reason it cannot be tried. */
export function sandboxedPlan(chromiumPath: string): LaunchPlan | { unavailable: string } {
  const env = getEnv();
  if (env.BROWSER_SANDBOX === "off") return { unavailable: "BROWSER_SANDBOX=off" };
  if (process.getuid?.() !== 0) return { executablePath: chromiumPath, chromiumSandbox: true, mode: "sandbox" };
  try {
    accessSync(SETPRIV, constants.X_OK);
  } catch {
    return { unavailable: `${SETPRIV} is missing (util-linux)` };
  }
  let ids: { uid: number; gid: number };
  try {
    ids = ensureUser(env.BROWSER_USER);
  } catch (err) {
    return { unavailable: `no user ${env.BROWSER_USER}: ${(err as Error).message.split("\n")[0]}` };
  }
  return { executablePath: writeWrapper(chromiumPath, ids), chromiumSandbox: true, mode: "unprivileged-user" };
}

/** The user's uid and gid, after creating it as a system user without a home or a shell when it does not exist. */
function ensureUser(name: string): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync("id", ["-u", name], { encoding: "utf8", stdio: "pipe" }).trim()),
    gid: Number(execFileSync("id", ["-g", name], { encoding: "utf8", stdio: "pipe" }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync(
        "useradd",
        ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name],
        { stdio: "pipe" },
      );
    } catch (err) {
      // Another server on this host may have created it a moment ago; only a user still missing is an error.
      try {
        return ids();
      } catch {
        throw err;
      }
    }
    return ids();
  }
}

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The wrapper Playwright starts instead of Chromium. Playwright creates the profile (--user-data-dir) as root with
 * mode 0700 just before; the user gets it, and uses it as HOME too (caches, NSS database). `exec` keeps the PID and
 * the command line (our launch marker) of the Chromium that Playwright and `processes` look for.
 */
function writeWrapper(chromiumPath: string, { uid, gid }: { uid: number; gid: number }): string {
  const dir = path.join(dataDir(), "bin");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, "chromium-unprivileged");
  writeFileSync(
    file,
    [
      "#!/bin/sh",
      "# Written by Cabin at start (lib/computers/browser/launch-user.ts): Chromium as an unprivileged user, " +
        "sandbox on.",
      "set -e",
      'profile=""',
      'for arg in "$@"; do case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}";; esac; done',
      `if [ -n "$profile" ]; then chown -R ${uid}:${gid} "$profile"; export HOME="$profile"; fi`,
      `exec ${SETPRIV} --reuid=${uid} --regid=${gid} --clear-groups --inh-caps=-all ` +
        `-- ${shellQuote(chromiumPath)} "$@"`,
      "",
    ].join("\n"),
    { mode: 0o700 },
  );
  return file;
}
