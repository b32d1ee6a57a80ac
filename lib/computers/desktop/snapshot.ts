// Snapshots of a desktop: the overlay's upper layer (everything the session changed:
// files, installed packages, configuration, deletions as whiteouts, replaced
// directories as opaque xattrs) as tar + zstd, and back into a new upper layer.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

// trusted.overlay.* marks opaque directories and redirects; security.capability keeps setcap'd files.
const XATTRS = [
  "--xattrs",
  "--xattrs-include=trusted.*",
  "--xattrs-include=security.capability",
  "--xattrs-include=user.*",
];

/** Runs tar; `okCodes`: GNU tar exits 1 when a file changed while it was read (a live snapshot). */
function tar(args: string[], input?: Buffer, okCodes = [0]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("tar", args, { stdio: [input ? "pipe" : "ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout!.on("data", (d: Buffer) => out.push(d));
    child.stderr!.on("data", (d) => (err = (err + d).slice(-2000)));
    child.on("error", reject);
    child.on("close", (code) =>
      code !== null && okCodes.includes(code)
        ? resolve(Buffer.concat(out))
        : reject(new Error(`tar exited ${code}: ${err.trim()}`)),
    );
    if (input) {
      child.stdin!.on("error", () => {});
      child.stdin!.end(input);
    }
  });
}

// Caches apt rebuilds with `apt-get update` (tens of MB after one update); installed
// packages, their files and dpkg's database are kept.
const EXCLUDES = [
  "--exclude=./var/lib/apt/lists/*",
  "--exclude=./var/cache/apt/*.bin",
  "--exclude=./var/cache/apt/archives/*.deb",
];

/** tar.zst of the upper layer; it may be taken while the desktop runs (periodic saves). */
export function archiveUpper(upper: string): Promise<Buffer> {
  return tar(
    [
      "--create",
      "--numeric-owner",
      "--sparse",
      ...XATTRS,
      ...EXCLUDES,
      "-I",
      "zstd -3 -T0 -q",
      "-C",
      upper,
      "-f",
      "-",
      ".",
    ],
    undefined,
    [0, 1],
  );
}

/** Unpacks a snapshot into an empty upper layer, keeping owners, modes, devices (whiteouts) and xattrs. */
export async function extractUpper(upper: string, archive: Buffer): Promise<void> {
  await tar(
    ["--extract", "--numeric-owner", "--same-permissions", ...XATTRS, "-I", "zstd -d -q", "-C", upper, "-f", "-"],
    archive,
  );
}

/**
 * A cheap digest of the upper layer's metadata (paths, sizes, times, modes, owners):
 * when it has not changed since the last snapshot, the last archive is still exact.
 */
export async function fingerprintUpper(upper: string): Promise<string> {
  const hash = createHash("sha256");
  const visit = async (dir: string) => {
    const names = (await readdir(/* turbopackIgnore: true */ dir)).sort();
    for (const name of names) {
      const p = path.join(dir, name);
      const st = await lstat(/* turbopackIgnore: true */ p, { bigint: true });
      hash.update(`${p}\0${st.size}\0${st.mtimeNs}\0${st.ctimeNs}\0${st.mode}\0${st.uid}\0${st.gid}\0${st.rdev}\n`);
      if (st.isDirectory()) await visit(p);
    }
  };
  const top = await lstat(/* turbopackIgnore: true */ upper, { bigint: true });
  hash.update(`${top.mtimeNs}\0${top.ctimeNs}\0${top.mode}\n`);
  await visit(upper);
  return hash.digest("hex");
}
