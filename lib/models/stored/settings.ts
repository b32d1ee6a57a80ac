// GET /api/models: what Settings → Models shows an organization's member. Keys
// are never part of it (only their last characters); the server's MODELS
// entries come without URL or credential, read-only.
import type { Member } from "@/lib/auth/member";
import { environmentModels } from "@/lib/models/registry";
import { listStoredModels } from "@/lib/models/stored/store";

export async function modelSettings(member: Member) {
  const { models, aliases } = environmentModels();
  return {
    data: await listStoredModels(member.organizationId),
    environment: models.map((m) => ({
      model_id: m.id,
      backend: m.metadata.backend,
      placeholder: m.metadata.placeholder === true,
      prices: m.metadata.prices,
      capabilities: m.capabilities,
      aliases: [...aliases].filter(([, target]) => target === m.id).map(([alias]) => alias),
    })),
    /** Owners add, edit, test and remove; everyone else reads. */
    can_edit: member.role === "owner",
  };
}

export type ModelSettings = Awaited<ReturnType<typeof modelSettings>>;
