// A throwaway PostgreSQL server for the test suite: Debian's postgresql
// package (installed with apt when missing and running as root), a cluster
// in a temp directory on a free loopback port, removed when stopped.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { run } from "./steps.mjs";

function findPgBin() {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], "bin") : null;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function ensureInstalled() {
  let bin = findPgBin();
  if (bin) return bin;
  if (process.getuid?.() === 0 && existsSync("/etc/debian_version")) {
    console.log("  PostgreSQL not found: installing Debian's postgresql with apt-get");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "postgresql"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    bin = findPgBin();
  }
  if (!bin)
    throw new Error(
      "PostgreSQL server binaries not found: install the 'postgresql' package (Debian) to run the PostgreSQL " +
        "test suite",
    );
  return bin;
}

/** Starts a server and returns its URL and a stop function. */
export async function startPostgres() {
  const bin = ensureInstalled();
  const dir = mkdtempSync(path.join(os.tmpdir(), "cabin-pg-"));
  const port = await freePort();
  // initdb refuses to run as root: run the server as the package's postgres user.
  const asUser = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  if (asUser.length) {
    chmodSync(dir, 0o700);
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const exec = (tool, args) => {
    const full = [...asUser, path.join(bin, tool), ...args];
    return run(full[0], full.slice(1), { quiet: true });
  };
  const data = path.join(dir, "data");
  await exec("initdb", ["-D", data, "-A", "trust", "-U", "cabin", "--no-sync"]);
  await exec("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(dir, "server.log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    "start",
  ]);
  return {
    url: `postgresql://cabin@127.0.0.1:${port}/postgres`,
    async stop() {
      await exec("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
