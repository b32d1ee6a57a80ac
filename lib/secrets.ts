// The app secret: CABIN_SECRET, or one generated on first start and kept in
// DATA_DIR/secret (mode 0600) so restarts keep logins and encrypted state valid.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/env";
import { singleton, singletonKey } from "@/lib/singleton";

const appSecretKey = singletonKey<string>("appSecret");

function loadAppSecret(): string {
  const env = getEnv();
  if (env.CABIN_SECRET) return env.CABIN_SECRET;
  const file = path.join(dataDir(env), "secret");
  try {
    return readFileSync(/* turbopackIgnore: true */ file, "utf8").trim();
  } catch {
    mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true });
    const fresh = randomBytes(32).toString("base64url");
    try {
      writeFileSync(/* turbopackIgnore: true */ file, fresh + "\n", { mode: 0o600, flag: "wx" });
      return fresh;
    } catch {
      // Another process created it first: use theirs.
      return readFileSync(/* turbopackIgnore: true */ file, "utf8").trim();
    }
  }
}

/** The secret, read or created once per process (every bundle sees the same one). */
export function getAppSecret(): string {
  return singleton(appSecretKey, loadAppSecret);
}
