// What the dashboard's "Start a task" form offers: the server's models (the
// agent default first), its kinds and its max_steps limit.
import { defaultModel } from "@/lib/agent/service";
import { getEnv } from "@/lib/env";
import { listModels } from "@/lib/models/registry";

export function taskFormOptions(organizationId?: string) {
  const preferred = defaultModel(organizationId);
  const models = listModels(organizationId).map((m) => ({
    id: m.id,
    placeholder: Boolean(m.metadata.placeholder),
    vision: Boolean(m.capabilities.vision),
  }));
  models.sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred));
  return { models, maxStepsLimit: getEnv().AGENT_MAX_STEPS_LIMIT };
}

export type TaskFormOptions = ReturnType<typeof taskFormOptions>;
