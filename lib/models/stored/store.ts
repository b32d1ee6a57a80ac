// Stored models: what an organization's owners set up in the dashboard
// (docs/models.md, "Models set up in the dashboard"). Each write raises the
// revision row in its transaction (lib/models/stored/sync.ts) and reloads this
// node's copy before answering, so the next request here already sees it.
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import { getDb } from "@/lib/db";
import { environmentModels } from "@/lib/models/registry";
import { apiKeyHint, keyBinding, sealApiKey } from "@/lib/models/stored/key-crypto";
import { checkEntry, entryOf, type ModelBody } from "@/lib/models/stored/model-input";
import { reloadStoredModels, storedModelsSnapshot } from "@/lib/models/stored/sync";

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof getDb>["storedModel"]["findFirst"]>>>;
type Tx = Parameters<Parameters<ReturnType<typeof getDb>["$transaction"]>[0]>[0];

/** A stored model as the dashboard shows it: never its key, only the key's last characters. */
export function describeStoredModel(row: Row) {
  const entry = JSON.parse(row.config) as {
    backend: string;
    url?: string;
    upstreamModel?: string;
    prices?: { input: number; output: number };
    capabilities?: Record<string, boolean>;
  };
  const snapshot = storedModelsSnapshot();
  const served = snapshot.byOrganization.get(row.organizationId)?.find((e) => e.rowId === row.id);
  return {
    id: row.id,
    model_id: row.modelId,
    provider: entry.backend,
    base_url: entry.url ?? null,
    upstream_model: entry.upstreamModel ?? null,
    prices: served?.config.prices ?? entry.prices ?? { input: 0, output: 0 },
    capabilities: { ...(served?.config.capabilities ?? entry.capabilities) } as Record<string, unknown>,
    aliases: JSON.parse(row.aliases) as string[],
    api_key_hint: row.apiKeyHint,
    /** MODELS names the same id: the environment's model answers it (docs/models.md). */
    shadowed_by_environment: environmentModels().reserved.has(row.modelId),
    problem: snapshot.problems.get(row.id) ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type StoredModelView = ReturnType<typeof describeStoredModel>;

/** Ids are one namespace per organization: MODELS' reserved ids, and the organization's ids and aliases. */
async function assertNamesFree(
  tx: Tx,
  organizationId: string,
  exceptRowId: string | null,
  modelId: string,
  aliases: string[],
) {
  const { reserved } = environmentModels();
  const names = [{ name: modelId, param: "id" }, ...aliases.map((name, i) => ({ name, param: `aliases[${i}]` }))];
  const seen = new Set<string>();
  for (const { name, param } of names) {
    if (seen.has(name)) throw new AppError("invalid_request", `'${name}' is named twice`, { param });
    seen.add(name);
    if (reserved.has(name)) {
      throw new AppError(
        "conflict",
        `'${name}' is configured on this server (MODELS or MODEL_ALIASES); pick another name`,
        {
          param,
        },
      );
    }
  }
  const others = await tx.storedModel.findMany({
    where: { organizationId, ...(exceptRowId ? { NOT: { id: exceptRowId } } : {}) },
    select: { modelId: true, aliases: true },
  });
  for (const other of others) {
    const taken = new Set([other.modelId, ...(JSON.parse(other.aliases) as string[])]);
    const clash = names.find((n) => taken.has(n.name));
    if (clash) {
      throw new AppError("conflict", `'${clash.name}' is already used by the model '${other.modelId}'`, {
        param: clash.param,
      });
    }
  }
}

async function bumpRevision(tx: Tx) {
  await tx.storedModelRevision.upsert({
    where: { id: 1 },
    create: { id: 1, revision: 1 },
    update: { revision: { increment: 1 } },
  });
}

export async function listStoredModels(organizationId: string): Promise<StoredModelView[]> {
  const rows = await getDb().storedModel.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } });
  return rows.map(describeStoredModel);
}

export async function findStoredModel(organizationId: string, id: string): Promise<Row> {
  const row = await getDb().storedModel.findFirst({ where: { id, organizationId } });
  if (!row) throw new AppError("not_found", "No such model in this organization", { param: "id" });
  return row;
}

export async function createStoredModel(
  organizationId: string,
  userId: string,
  body: ModelBody,
): Promise<StoredModelView> {
  const entry = entryOf(body);
  checkEntry(body.id, entry, body.api_key ?? undefined);
  const id = `mdl_${randomUUID().replace(/-/g, "")}`;
  const aliases = body.aliases ?? [];
  const row = await getDb().$transaction(async (tx) => {
    await assertNamesFree(tx, organizationId, null, body.id, aliases);
    await bumpRevision(tx);
    return tx.storedModel.create({
      data: {
        id,
        organizationId,
        modelId: body.id,
        config: JSON.stringify(entry),
        apiKeySealed: body.api_key ? sealApiKey(body.api_key, keyBinding(organizationId, id)) : null,
        apiKeyHint: body.api_key ? apiKeyHint(body.api_key) : null,
        aliases: JSON.stringify(aliases),
        createdById: userId,
      },
    });
  });
  await reloadStoredModels();
  return describeStoredModel(row);
}

/** Absent fields keep their value; `api_key: null` removes the key, a string replaces it. */
export async function updateStoredModel(
  organizationId: string,
  id: string,
  patch: Partial<ModelBody>,
): Promise<StoredModelView> {
  const row = await findStoredModel(organizationId, id);
  const saved = describeStoredModel(row);
  const merged: ModelBody = {
    id: patch.id ?? row.modelId,
    provider: (patch.provider ?? saved.provider) as ModelBody["provider"],
    base_url: patch.base_url ?? saved.base_url ?? undefined,
    upstream_model: patch.upstream_model ?? saved.upstream_model ?? undefined,
    prices: patch.prices ?? (JSON.parse(row.config) as { prices?: ModelBody["prices"] }).prices,
    capabilities:
      patch.capabilities ?? (JSON.parse(row.config) as { capabilities?: ModelBody["capabilities"] }).capabilities,
    aliases: patch.aliases ?? saved.aliases,
  };
  const entry = entryOf(merged);
  // The saved key is only checked for presence: its value never leaves the sealed column here.
  checkEntry(
    merged.id,
    entry,
    patch.api_key === null ? undefined : (patch.api_key ?? (row.apiKeySealed ? "saved" : undefined)),
  );
  const key =
    patch.api_key === undefined
      ? {}
      : patch.api_key === null
        ? { apiKeySealed: null, apiKeyHint: null }
        : {
            apiKeySealed: sealApiKey(patch.api_key, keyBinding(organizationId, id)),
            apiKeyHint: apiKeyHint(patch.api_key),
          };
  const updated = await getDb().$transaction(async (tx) => {
    await assertNamesFree(tx, organizationId, id, merged.id, merged.aliases ?? []);
    await bumpRevision(tx);
    return tx.storedModel.update({
      where: { id },
      data: {
        modelId: merged.id,
        config: JSON.stringify(entry),
        aliases: JSON.stringify(merged.aliases ?? []),
        ...key,
      },
    });
  });
  await reloadStoredModels();
  return describeStoredModel(updated);
}

export async function deleteStoredModel(organizationId: string, id: string): Promise<{ deleted: true; id: string }> {
  await getDb().$transaction(async (tx) => {
    const { count } = await tx.storedModel.deleteMany({ where: { id, organizationId } });
    if (count === 0) throw new AppError("not_found", "No such model in this organization", { param: "id" });
    await bumpRevision(tx);
  });
  await reloadStoredModels();
  return { deleted: true, id };
}
