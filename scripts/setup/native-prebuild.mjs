// better-sqlite3 (the SQLite driver) installs with `prebuild-install || node-gyp rebuild`: it downloads
// a prebuilt binary from GitHub, and where GitHub cannot be reached it compiles SQLite from source, about
// 70 s of a 2-core machine's first `npm install`. prebuild-install looks in npm's cache
// (`<npm cache>/_prebuilds/`) before downloading, so once the binary has been compiled on a machine the
// set-up packs it there in prebuild-install's own format, and the next clone's install unpacks it in a
// second. Keyed by package version, Node ABI, platform and architecture, like the download it stands for.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Packs node_modules/better-sqlite3's compiled binary into the prebuild cache unless one is there. Returns what it did.
 */
export function cacheSqlitePrebuild(root) {
  const moduleDir = path.join(root, "node_modules", "better-sqlite3");
  const binary = path.join(moduleDir, "build", "Release", "better_sqlite3.node");
  if (!existsSync(binary)) return "no compiled binary";
  const require = createRequire(path.join(moduleDir, "package.json"));
  const util = require("prebuild-install/util");
  const pkg = JSON.parse(readFileSync(path.join(moduleDir, "package.json"), "utf8"));
  // prebuild-install's own options (its rc: tag prefix, ABI, libc…), so the URL is the one its install asks for.
  const url = util.getDownloadUrl({ ...require("prebuild-install/rc")(pkg), pkg });
  const cached = util.cachedPrebuild(url);
  if (existsSync(cached)) return "cached";
  mkdirSync(path.dirname(cached), { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  // The layout prebuild-install unpacks into the package directory: build/Release/<module>.node.
  execFileSync("tar", ["-czf", tmp, "-C", moduleDir, "build/Release/better_sqlite3.node"]);
  renameSync(tmp, cached);
  return `cached ${path.basename(cached)}`;
}
