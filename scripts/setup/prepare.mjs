// Everything `npm start` and `npm test` need on a fresh clone, each step
// skipped when already done: npm dependencies, a Chromium, the database
// client and migrations, and a production build that matches the sources.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildStampFile, hashBuildInputs } from "./build-inputs.mjs";
import { ensureDesktopImage, startDesktopImageInBackground } from "./desktop-image.mjs";
import { cacheSqlitePrebuild } from "./native-prebuild.mjs";
import { run, runTsx, step } from "./steps.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const LOCK_STAMP = path.join(root, "node_modules", ".cabin-lock-hash");
const BUILD_STAMP = buildStampFile(root);

const sha = (data) => createHash("sha256").update(data).digest("hex");

async function ensureDependencies() {
  return step("npm dependencies", async () => {
    const lockHash = () => sha(readFileSync(path.join(root, "package-lock.json")));
    if (existsSync(LOCK_STAMP) && readFileSync(LOCK_STAMP, "utf8") === lockHash()) return `up to date${keepPrebuild()}`;
    // Not `npm ci`: it rejects a lock whose optional platform packages (macOS,
    // Windows builds) the registry mirror does not carry; install keeps to the
    // lock and skips what does not apply to this platform.
    await run("npm", ["install", "--no-fund", "--no-audit"], { cwd: root });
    // npm 11 runs install scripts only for packages allowed in package.json; prove the native one loads.
    await run(process.execPath, ["-e", "new (require('better-sqlite3'))(':memory:').close()"], { cwd: root });
    writeFileSync(LOCK_STAMP, lockHash());
    return `installed${keepPrebuild()}`;
  });
}

/**
 * The SQLite driver's compiled binary, kept for the next clone's install (native-prebuild.mjs); never fails the set-up.
 */
function keepPrebuild() {
  try {
    const done = cacheSqlitePrebuild(root);
    return done.startsWith("cached ") ? ` (SQLite driver ${done} for the next install)` : "";
  } catch (err) {
    return ` (SQLite driver binary not cached: ${err.message.split("\n")[0]})`;
  }
}

async function ensureChromium() {
  return step("Chromium for browser sessions", () => runTsx("scripts/setup/chromium.ts", [], { cwd: root }));
}

// A build made without its type check (npm start) is stamped so; `npm test` then checks the types alone
// (`tsc --noEmit`) rather than building again.
const UNCHECKED = ":unchecked";

async function ensureBuild({ typecheck }) {
  return step("production build", async () => {
    const wanted = hashBuildInputs(root);
    const stamp = existsSync(BUILD_STAMP) ? readFileSync(BUILD_STAMP, "utf8") : "";
    if (stamp === wanted || (stamp === wanted + UNCHECKED && !typecheck)) return "up to date";
    if (stamp === wanted + UNCHECKED) {
      await run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit"], { cwd: root });
      writeFileSync(BUILD_STAMP, wanted);
      return "up to date, types checked";
    }
    await run(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      // next.config.ts reads these: CABIN_BUILD_TYPECHECK "0" skips the build's type check.
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
        CABIN_BUILD_TYPECHECK: typecheck ? "1" : "0",
        // next.config.ts: a checkout's first build (no stamp yet) writes no Turbopack cache; later ones do.
        CABIN_BUILD_CACHE: stamp ? "1" : "0",
      },
    });
    writeFileSync(BUILD_STAMP, typecheck ? wanted : wanted + UNCHECKED);
    return typecheck ? "built" : "built (types not checked: npm test checks them)";
  });
}

/**
 * After npm's install, the steps that do not depend on each other run side by side:
 * Chromium (apt), the database (client, then migrations) and the production build
 * (after the client it imports). The desktop base image needs apt too, so it starts
 * when Chromium's apt-get is done. `desktops`:
 *   "required"   (npm test) waits for the image and fails without it;
 *   "background" (npm start) builds it in a detached process and serves meanwhile:
 *                desktop creates answer 503 with retry-after until it is ready;
 *   "optional"   waits for it, warns and goes on without it when it cannot be built.
 * `typecheck: false` (npm start) builds without the type check: a first start serves sooner, and the
 * types are checked by `npm test` (and CI) before any change lands.
 * Prints each step's time, and the total.
 */
export async function prepare({ build = true, typecheck = true, migrate = true, desktops = "optional" } = {}) {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 9))
    throw new Error(`Node ${process.versions.node} is too old: Cabin needs Node 20.9 or newer`);
  const started = Date.now();
  await ensureDependencies();
  const chromium = ensureChromium();
  const image = chromium.then(() => desktopImage(desktops));
  const client = step("database client", () => runTsx("scripts/db/generate-client.ts", [], { cwd: root }));
  const migrations = migrate
    ? client.then(() => step("database migrations", () => runTsx("scripts/db/cli.ts", ["deploy"], { cwd: root })))
    : client;
  const built = build ? client.then(() => ensureBuild({ typecheck })) : client;
  await Promise.all([chromium, migrations, built, image]);
  console.log(`✓ ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function desktopImage(desktops) {
  if (desktops === "background") return startDesktopImageInBackground();
  try {
    await ensureDesktopImage({ required: desktops === "required" });
  } catch (err) {
    if (desktops === "required") throw err;
    console.warn(`  WARNING: desktop sessions are unavailable: ${err.message.split("\n")[0]}`);
  }
}
