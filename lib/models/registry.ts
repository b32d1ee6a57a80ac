// getModel(id): the one way to reach a model. Which backend serves an id is
// configuration: MODELS, read once per process, and for an organization also
// the models its owners set up in the dashboard (lib/models/stored/), which
// every node follows; MODELS wins for the ids it names.
import path from "node:path";
import { AppError } from "@/lib/api/errors";
import { dataDir, getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { parseModelAliases } from "@/lib/models/aliases";
import { localModelKey, parseModelsConfig, type BackendConfig, type ModelConfig } from "@/lib/models/config";
import { LocalBackend } from "@/lib/models/local/backend";
import { ensureEmbeddedModel, PLACEHOLDER_NOTICE } from "@/lib/models/local/embedded-model";
import type { ModelBackend, ModelInfo, ResolvedModel } from "@/lib/models/types";
import { UpstreamBackend } from "@/lib/models/upstream/backend";
import { anthropicBackend } from "@/lib/models/upstream/anthropic/backend";
import { googleBackend } from "@/lib/models/upstream/google/backend";
import { setSingleton, singleton, singletonKey } from "@/lib/singleton";
import { coolingBackends } from "@/lib/models/generation/fallback";
import { storedModelsSnapshot } from "@/lib/models/stored/sync";

interface Registry {
  byId: Map<string, ResolvedModel>;
  /** Alias -> configured model id (`parseModelAliases`). */
  aliases: Map<string, string>;
  /** MODEL_ALIASES was set: its aliases win over an organization's; the built-in default yields to one. */
  aliasesConfigured: boolean;
}

const registryKey = singletonKey<Registry>("models.registry");

function backendOf(config: BackendConfig, labels: Map<string, string>): ModelBackend {
  if (config.backend === "openai-compatible") return new UpstreamBackend(config);
  if (config.backend !== "local")
    return config.backend === "anthropic" ? anthropicBackend(config) : googleBackend(config);
  const placeholder = config.path === undefined;
  const file = placeholder ? "placeholder" : path.resolve(config.path!);
  const key = `${localModelKey(config, file)}|embedding=${config.embeddingPath ?? ""}`;
  // Ids sharing one loaded model are named after the first of them in queue messages.
  if (!labels.has(key)) labels.set(key, config.id);
  return new LocalBackend({
    key,
    label: labels.get(key)!,
    path: placeholder ? () => ensureEmbeddedModel(dataDir()) : async () => file,
    embeddingPath: config.embeddingPath && path.resolve(config.embeddingPath),
    contextSize: config.contextSize,
    threads: config.threads,
    parallel: config.parallel,
    queueSize: config.queueSize,
  });
}

/** What /v1/models says of a model: about its first backend, the one that answers when all is well. */
function infoOf(config: ModelConfig, created: number): ModelInfo {
  const first = config.backends[0]!;
  const placeholder = first.backend === "local" && first.path === undefined;
  const ownedBy =
    config.ownedBy ??
    (first.backend !== "local"
      ? new URL(first.url).host
      : placeholder
        ? "cabin-placeholder (outputs not meaningful)"
        : "cabin");
  return {
    id: config.id,
    object: "model",
    created,
    owned_by: ownedBy,
    capabilities: config.capabilities,
    metadata: placeholder
      ? { backend: "local", prices: config.prices, placeholder: true, notice: PLACEHOLDER_NOTICE }
      : { backend: first.backend, prices: config.prices },
  };
}

function resolve(config: ModelConfig, created: number, labels: Map<string, string>): ResolvedModel {
  const backends = config.backends.map((b) => ({
    name: b.name,
    backend: backendOf(b, labels),
    responses: b.backend === "openai-compatible" ? b.responses : ("translate" as const),
    computerTool:
      b.backend === "openai-compatible" && b.responses === "native" ? b.computerTool : ("computer_use" as const),
  }));
  return {
    id: config.id,
    info: infoOf(config, created),
    prices: config.prices,
    capabilities: config.capabilities,
    maxImageEdge: config.maxImageEdge,
    backend: backends[0]!.backend,
    backends,
  };
}

function buildRegistry(): Registry {
  const env = getEnv();
  const configs = parseModelsConfig(env.MODELS, {
    prefix: env.MODEL_PREFIX,
    threads: env.MODEL_THREADS,
    contextSize: env.MODEL_CONTEXT_SIZE,
    parallel: env.MODEL_PARALLEL,
    queueSize: env.MODEL_QUEUE_SIZE,
    upstreamTimeoutMs: env.MODEL_UPSTREAM_TIMEOUT_MS,
  });
  const created = Math.floor(Date.now() / 1000);
  const labels = new Map<string, string>();
  const byId = new Map(configs.map((c) => [c.id, resolve(c, created, labels)] as const));
  const aliases = parseModelAliases(env.MODEL_ALIASES, [...byId.keys()], env.MODEL_PREFIX);
  const log = getLogger();
  const placeholders = [...byId.values()].filter((m) => m.info.metadata.placeholder).map((m) => m.id);
  if (placeholders.length)
    log.warn({ part: "models", models: placeholders }, `Placeholder model in use. ${PLACEHOLDER_NOTICE}`);
  log.info(
    { part: "models", models: [...byId.values()].map((m) => ({ id: m.id, backend: m.backend.kind })) },
    "model registry ready",
  );
  if (aliases.size) log.info({ part: "models", aliases: Object.fromEntries(aliases) }, "model aliases");
  return { byId, aliases, aliasesConfigured: Boolean(env.MODEL_ALIASES?.trim()) };
}

/** Built on first use, once per process (MODELS is read once). */
function registry(): Registry {
  return singleton(registryKey, buildRegistry);
}

/** The ids MODELS names and the aliases an organization's stored model may not take (docs/models.md). */
export function environmentModels() {
  const { byId, aliases, aliasesConfigured } = registry();
  return {
    models: [...byId.values()].map((m) => m.info),
    aliases,
    /** Ids taken server-wide: MODELS ids, and MODEL_ALIASES when set (the built-in alias is not). */
    reserved: new Set([...byId.keys(), ...(aliasesConfigured ? aliases.keys() : [])]),
  };
}

interface OrganizationModels {
  byId: Map<string, ResolvedModel>;
  /** Alias -> model id as the organization sees them: MODEL_ALIASES' first, then its own, then the built-in default. */
  aliases: Map<string, string>;
}

const organizationModelsKey = singletonKey<{ revision: number; byOrganization: Map<string, OrganizationModels> }>(
  "models.registry.organizations",
);

/** An organization's stored models that MODELS does not shadow, resolved once per snapshot revision. */
function organizationModels(organizationId: string): OrganizationModels {
  const snapshot = storedModelsSnapshot();
  let cache = singleton(organizationModelsKey, () => ({ revision: snapshot.revision, byOrganization: new Map() }));
  if (cache.revision !== snapshot.revision) {
    cache = { revision: snapshot.revision, byOrganization: new Map() };
    setSingleton(organizationModelsKey, cache);
  }
  const cached = cache.byOrganization.get(organizationId);
  if (cached) return cached;
  const env = registry();
  const { reserved } = environmentModels();
  const created = Math.floor(Date.now() / 1000);
  const entries = (snapshot.byOrganization.get(organizationId) ?? []).filter((e) => !reserved.has(e.config.id));
  const byId = new Map(entries.map((e) => [e.config.id, resolve(e.config, created, new Map())] as const));
  const aliases = new Map(env.aliasesConfigured ? env.aliases : []);
  for (const e of entries) {
    for (const alias of e.aliases) if (!aliases.has(alias) && !byId.has(alias)) aliases.set(alias, e.config.id);
  }
  for (const [alias, target] of env.aliases) if (!aliases.has(alias) && !byId.has(alias)) aliases.set(alias, target);
  const fresh = { byId, aliases };
  cache.byOrganization.set(organizationId, fresh);
  return fresh;
}

/**
 * The models an organization is served: MODELS' and its own (aliases not included: the dashboard shows and meters
 * models).
 */
export function listModels(organizationId?: string): ModelInfo[] {
  const own = organizationId ? [...organizationModels(organizationId).byId.values()] : [];
  return [...registry().byId.values(), ...own].map((m) => m.info);
}

function aliasesFor(organizationId?: string): Map<string, string> {
  return organizationId ? organizationModels(organizationId).aliases : registry().aliases;
}

/**
 * GET /v1/models: each model, then each alias as a model of its own id naming the model that answers it
 * (`metadata.alias_of`).
 */
export function listModelsAndAliases(organizationId?: string): ModelInfo[] {
  return [
    ...listModels(organizationId),
    ...[...aliasesFor(organizationId)].map(([alias, target]) => aliasInfo(alias, getModel(target, organizationId))),
  ];
}

function aliasInfo(alias: string, target: ResolvedModel): ModelInfo {
  return { ...target.info, id: alias, metadata: { ...target.info.metadata, alias_of: target.id } };
}

/** GET /v1/models/{id}: a model or an alias. */
export function modelInfo(id: string, organizationId?: string): ModelInfo {
  const target = aliasesFor(organizationId).get(id);
  return target ? aliasInfo(id, getModel(target, organizationId)) : getModel(id, organizationId).info;
}

/**
 * The model behind an id or alias for an organization (MODELS first), or a 404 `model_not_found` in the OpenAI
 * envelope.
 */
export function getModel(id: string, organizationId?: string): ResolvedModel {
  const { byId } = registry();
  let model = byId.get(id);
  if (!model) {
    const own = organizationId ? organizationModels(organizationId) : undefined;
    const target = (own ?? registry()).aliases.get(id);
    model = own?.byId.get(id) ?? (target === undefined ? undefined : (byId.get(target) ?? own?.byId.get(target)));
  }
  if (!model) {
    throw new AppError(
      "not_found",
      `The model '${id}' does not exist. GET /v1/models lists the models of this server.`,
      {
        param: "model",
        detail: "model_not_found",
      },
    );
  }
  return model;
}

/** Loads every local model now, so the first request does not wait ~2 s for it. */
export async function warmUpModels(): Promise<void> {
  await Promise.all([...registry().byId.values()].flatMap((m) => m.backends.map((b) => b.backend.warmUp?.())));
}

/** A model with fallbacks: each backend's kind and state, and whether any can serve. */
function fallbackHealth(model: ResolvedModel) {
  if (model.backends.length === 1) return {};
  const backends = model.backends.map((b) => ({ name: b.name, kind: b.backend.kind, ...b.backend.health() }));
  return { ok: backends.some((b) => b.ok), backends };
}

/** /api/health: each model's backend and state. Optional: a broken model degrades, it does not fail health. */
export function modelsHealth() {
  const models = Object.fromEntries(
    [...registry().byId.values()].map((m) => [
      m.id,
      {
        backend: m.backend.kind,
        placeholder: m.info.metadata.placeholder === true,
        ...m.backend.health(),
        ...fallbackHealth(m),
      },
    ]),
  );
  // A model answers while any of its backends can; `cooling` lists the ones being skipped now.
  return { ok: Object.values(models).every((m) => m.ok), required: false, models, cooling: coolingBackends() };
}
