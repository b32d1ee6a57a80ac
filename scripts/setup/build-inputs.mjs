// What the production build (`next build`) reads, and whether `.next` was built from it:
// scripts/setup/prepare.mjs builds again when the inputs' hash differs from the stamp, and the
// test harness (tests/api/harness.ts) refuses to start a server on a build older than its sources.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "instrumentation.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
  "prisma/schema.prisma",
];

/** The hash of the inputs prepare.mjs wrote when it last built (a suffix marks a build without its type check). */
export const buildStampFile = (root) => path.join(root, ".next", "cabin-build-hash");

/** Every file under BUILD_INPUTS, relative to `root`, in a stable order (a missing input is skipped). */
function inputFiles(root) {
  const files = [];
  const visit = (rel) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) for (const name of readdirSync(abs).sort()) visit(path.join(rel, name));
    else files.push(rel);
  };
  BUILD_INPUTS.forEach(visit);
  return files;
}

/** The SHA-256 of every input's path and content. */
export function hashBuildInputs(root) {
  const hash = createHash("sha256");
  for (const rel of inputFiles(root))
    hash
      .update(rel)
      .update("\0")
      .update(readFileSync(path.join(root, rel)))
      .update("\0");
  return hash.digest("hex");
}

/**
 * Why `.next` does not match the sources, or null when it does: a build is current when it is newer
 * than every input (`next build` run by hand), or when prepare.mjs stamped it with the inputs' hash
 * (files touched since, such as by `git stash`, without a change). Null when there is no build at all.
 */
export function staleBuild(root) {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return null;
  const builtAt = statSync(buildId).mtimeMs;
  const newer = inputFiles(root).find((rel) => statSync(path.join(root, rel)).mtimeMs > builtAt);
  if (!newer) return null;
  const stamp = existsSync(buildStampFile(root)) ? readFileSync(buildStampFile(root), "utf8") : "";
  if (stamp.startsWith(hashBuildInputs(root))) return null;
  return `${newer} changed after the production build in .next`;
}
