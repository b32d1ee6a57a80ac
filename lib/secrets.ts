// The app secret: CABIN_SECRET, or one generated on first start and kept in
// DATA_DIR/secret (mode 0600) so restarts keep logins and encrypted state valid.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/env";

let cached: string | undefined;

export function getAppSecret(): string {
  if (cached) return cached;
  const env = getEnv();
  if (env.CABIN_SECRET) return (cached = env.CABIN_SECRET);
  const file = path.join(dataDir(env), "secret");
  try {
    cached = readFileSync(/* turbopackIgnore: true */ file, "utf8").trim();
  } catch {
    mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true });
    const fresh = randomBytes(32).toString("base64url");
    try {
      writeFileSync(/* turbopackIgnore: true */ file, fresh + "\n", { mode: 0o600, flag: "wx" });
      cached = fresh;
    } catch {
      // Another process created it first: use theirs.
      cached = readFileSync(/* turbopackIgnore: true */ file, "utf8").trim();
    }
  }
  return cached;
}
