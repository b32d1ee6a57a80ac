// `npm start`: install what is missing, prepare the database, build when the
// sources changed, then serve. `--dev` serves with hot reload instead of a build.
import { spawn } from "node:child_process";
import path from "node:path";
import { SERVER_NODE_ARGS } from "./server-command.mjs";
import { prepare } from "./setup/prepare.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");

try {
  await prepare({ build: !dev, typecheck: false, desktops: "background" });
} catch (err) {
  console.error(`\nSet-up failed: ${err.message}`);
  process.exit(1);
}

const server = spawn(process.execPath, SERVER_NODE_ARGS, {
  cwd: root,
  stdio: "inherit",
  // Own process group: a terminal's Ctrl-C reaches only this script, which
  // forwards it once, so the server shuts down cleanly instead of twice.
  detached: true,
  env: { ...process.env, NODE_ENV: dev ? "development" : "production", NEXT_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
