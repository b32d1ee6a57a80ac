// What other parts of Cabin hold for an organization, as organization deletion sees it:
// lib/auth owns organizations but not their sessions or their spend, so the parts that
// do (lib/computers, lib/models) register an OrganizationResources at start-up and
// deletion asks each of them, without lib/auth importing either (docs/development.md
// "Contributing", the layer rules).
import { singleton, singletonKey } from "@/lib/singleton";

export interface PreparedDeletion {
  /** Live sessions stopped (and torn down) before the rows go. */
  stopped: number;
  /** Run once the organization's rows are deleted (files and totals the database cascade does not reach). */
  afterDeletion(): Promise<void>;
}

export interface OrganizationResources {
  /** Before the organization's rows are deleted: stop what runs for it and collect what to clean up after. */
  prepareDeletion(organizationId: string): Promise<Partial<PreparedDeletion>>;
}

const owners = singleton(singletonKey<Map<string, OrganizationResources>>("organizationResources"), () => new Map());

/** Registers (or, on a dev reload, replaces) the resources one part holds; `name` keys it. */
export function registerOrganizationResources(name: string, resources: OrganizationResources): void {
  owners.set(name, resources);
}

/** Asks every registered part, in registration order; their clean-ups run in that order after the deletion. */
export async function prepareResourcesForDeletion(organizationId: string): Promise<PreparedDeletion> {
  let stopped = 0;
  const after: Array<() => Promise<void>> = [];
  for (const resources of owners.values()) {
    const prepared = await resources.prepareDeletion(organizationId);
    stopped += prepared.stopped ?? 0;
    if (prepared.afterDeletion) after.push(prepared.afterDeletion);
  }
  return {
    stopped,
    afterDeletion: async () => {
      for (const run of after) await run();
    },
  };
}
