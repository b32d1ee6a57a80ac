// Every node's copy of the stored models (the dashboard's, docs/models.md "Models
// set up in the dashboard"). The registry answers synchronously from this
// snapshot; a writer raises stored_model_revisions.revision in the same
// transaction, and every node polls that one row every POLL_MS and reloads the
// table when it moved, so a change made through any node is served by all of
// them within a few seconds (the writing node reloads at once).
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { parseModelEntry, type ModelConfig, type ModelDefaults } from "@/lib/models/config";
import { keyBinding, openApiKey } from "@/lib/models/stored/key-crypto";
import { singleton, singletonKey } from "@/lib/singleton";

const POLL_MS = 2000;

export interface StoredModelEntry {
  /** The row id (the dashboard API addresses it). */
  rowId: string;
  config: ModelConfig;
  aliases: string[];
}

export interface StoredModelsSnapshot {
  /** -1 before the first load. */
  revision: number;
  byOrganization: Map<string, StoredModelEntry[]>;
  /** Rows that could not be served (a key that no longer opens, a backend this build lacks), by row id. */
  problems: Map<string, string>;
}

interface SyncState {
  snapshot: StoredModelsSnapshot;
  loading: Promise<void> | null;
}

const stateKey = singletonKey<SyncState>("models.stored.sync");
const state = () =>
  singleton(stateKey, () => ({
    snapshot: { revision: -1, byOrganization: new Map(), problems: new Map() },
    loading: null,
  }));

export function modelDefaults(): ModelDefaults {
  const env = getEnv();
  return {
    prefix: env.MODEL_PREFIX,
    threads: env.MODEL_THREADS,
    contextSize: env.MODEL_CONTEXT_SIZE,
    parallel: env.MODEL_PARALLEL,
    queueSize: env.MODEL_QUEUE_SIZE,
    upstreamTimeoutMs: env.MODEL_UPSTREAM_TIMEOUT_MS,
  };
}

/** What the registry serves now (empty until the first load). */
export function storedModelsSnapshot(): StoredModelsSnapshot {
  return state().snapshot;
}

async function currentRevision(): Promise<number> {
  const row = await getDb().storedModelRevision.findUnique({ where: { id: 1 } });
  return row?.revision ?? 0;
}

async function load(): Promise<StoredModelsSnapshot> {
  const db = getDb();
  // Revision first: a write landing between the two reads is picked up by the next poll.
  const revision = await currentRevision();
  const rows = await db.storedModel.findMany({ orderBy: { createdAt: "asc" } });
  const byOrganization = new Map<string, StoredModelEntry[]>();
  const problems = new Map<string, string>();
  const defaults = modelDefaults();
  for (const row of rows) {
    try {
      const entry = JSON.parse(row.config) as Record<string, unknown>;
      if (row.apiKeySealed) entry.apiKey = openApiKey(row.apiKeySealed, keyBinding(row.organizationId, row.id));
      const parsed = parseModelEntry(row.modelId, entry, defaults);
      if (parsed.problems) throw new Error(parsed.problems.map((p) => `${p.path.join(".")}: ${p.message}`).join("; "));
      const list = byOrganization.get(row.organizationId) ?? [];
      list.push({ rowId: row.id, config: parsed.config, aliases: JSON.parse(row.aliases) as string[] });
      byOrganization.set(row.organizationId, list);
    } catch (err) {
      problems.set(row.id, (err as Error).message);
      getLogger().error({ part: "models", model: row.modelId, err }, "stored model cannot be served");
    }
  }
  return { revision, byOrganization, problems };
}

/** Reloads now, after any load already running (which may predate a write just made): the caller sees its own write. */
export async function reloadStoredModels(): Promise<void> {
  const s = state();
  while (s.loading) await s.loading.catch(() => undefined);
  s.loading = load()
    .then((snapshot) => {
      s.snapshot = snapshot;
    })
    .finally(() => {
      s.loading = null;
    });
  return s.loading;
}

async function poll(): Promise<void> {
  const s = state();
  if (!s.loading && (await currentRevision()) !== s.snapshot.revision) await reloadStoredModels();
}

/** Loads the stored models before the node serves, then follows other nodes' changes. Returns the stop hook. */
export async function startStoredModelSync(): Promise<() => void> {
  await reloadStoredModels();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    timer = setTimeout(() => {
      poll()
        .catch((err) => getLogger().warn({ part: "models", err }, "stored models poll failed"))
        .finally(() => {
          if (!stopped) tick();
        });
    }, POLL_MS);
    timer.unref();
  };
  tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
