// Small helpers for the set-up scripts: timed, printed steps and child processes.
// Plain Node (no dependencies): these run before `npm install` has.
import { spawn } from "node:child_process";

export async function step(title, fn) {
  const started = Date.now();
  process.stdout.write(`▸ ${title}\n`);
  const result = await fn();
  const note = typeof result === "string" && result.trim() && !result.includes("\n") ? ` — ${result.trim()}` : "";
  process.stdout.write(`✓ ${title}${note} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return result;
}

/** Runs a command with inherited output; rejects with a readable error on failure. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: options.quiet ? "pipe" : "inherit", ...options });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve(output);
      else
        reject(
          new Error(
            `${command} ${args.join(" ")} failed ` +
              `(${signal ?? `exit ${code}`})${output ? `\n${output.slice(-4000)}` : ""}`,
          ),
        );
    });
  });
}

/** `tsx <file>` through the local install. */
export function runTsx(file, args = [], options = {}) {
  return run(process.execPath, ["--import", "tsx", file, ...args], options);
}

export const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;
