// With an empty database, tell the operator how to create the first account.
import { countUsers } from "@/lib/auth/organizations";
import { configuredOrigin } from "@/lib/api/public-url";
import { getLogger } from "@/lib/logger";

export async function announceFirstRun() {
  if ((await countUsers()) > 0) return;
  const url = configuredOrigin();
  const message = [
    "No accounts yet. Create the first one:",
    `  - in the browser: ${url}/sign-up`,
    '  - or with the CLI: npm run cli -- org create "My team" && npm run cli -- user create you@example.com ' +
      '--org "My team" --role owner',
  ].join("\n");
  getLogger().info(message);
  // Also plain, so it reads well in a terminal whatever the log format.
  console.log(`\n${message}\n`);
}
