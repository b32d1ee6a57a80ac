// Model API start-up (called once by `boot`): validate MODELS, load local
// models in the background; the returned stop hook flushes usage writes before
// freeing llama.cpp.
import { registerOrganizationResources } from "@/lib/auth/organization-resources";
import { getEnv } from "@/lib/env";
import { spendResources } from "@/lib/models/limits/budget";
import { getLogger } from "@/lib/logger";
import { registerModelFastPath } from "@/lib/models/gateway/fast-path";
import { disposeLocalRuntime } from "@/lib/models/local/runtime";
import { listModels, warmUpModels } from "@/lib/models/registry";
import { flushUsage, replayUsageJournal } from "@/lib/models/usage/usage";
import { startStoredModelSync } from "@/lib/models/stored/sync";

export async function start(): Promise<() => Promise<void>> {
  // Builds the registry now: a bad MODELS value is reported at start-up, not at the first request.
  listModels();
  // The dashboard's models are loaded before the node serves them, then followed (every node, every few seconds).
  const stopStoredModelSync = await startStoredModelSync();
  registerOrganizationResources("model spend", spendResources);
  // Before any request: what a killed process answered but did not write is billed first (docs/models.md "Usage").
  await replayUsageJournal().catch((err) =>
    getLogger().error({ err, part: "models" }, "usage journal replay failed; its files are kept for the next start"),
  );
  // Production only: in development Next's router keeps /v1 hot-reloadable.
  if (getEnv().NODE_ENV === "production") registerModelFastPath();
  if (getEnv().MODEL_WARMUP) {
    // Not awaited: the server accepts requests meanwhile; early requests wait for the load.
    warmUpModels().catch((err) => getLogger().error({ err, part: "models" }, "model warm-up failed"));
  }
  return async () => {
    stopStoredModelSync();
    await flushUsage();
    await disposeLocalRuntime();
  };
}
