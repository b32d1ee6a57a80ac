// What an organization's deletion asks of the session domain (OrganizationResources, see
// lib/auth/organization-resources.ts): its live sessions stopped and torn down before its
// rows go, so no computer outlives them, and its large saved states (files the database
// cascade does not reach) removed after.
import { AppError } from "@/lib/api/errors";
import type { OrganizationResources } from "@/lib/auth/organization-resources";
import { getSessionManager } from "@/lib/computers/registry";
import { deleteComputer } from "@/lib/computers/service";
import { LIVE_STATUSES } from "@/lib/computers/sessions/lifecycle";
import { removeStateFiles, stateFilesOf } from "@/lib/computers/state/state-store";
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";

/** Stops every live session of the organization and waits until each is torn down (state saved, computer released). */
export async function stopLiveSessions(organizationId: string): Promise<number> {
  const manager = getSessionManager();
  const live = await getDb().computer.findMany({
    where: { organizationId, status: { in: [...LIVE_STATUSES] } },
    select: { id: true, hostId: true },
  });
  const elsewhere = live.filter((row) => row.hostId !== manager.hostId);
  if (elsewhere.length) {
    throw new AppError(
      "conflict",
      `${elsewhere.length} live session(s) run on another host (${elsewhere[0]!.hostId}); stop them there first`,
      {
        detail: "sessions_on_other_host",
      },
    );
  }
  await Promise.all(
    live.map(async (row) => {
      const session = manager.get(row.id);
      await deleteComputer({ principal: { organizationId, apiKeyId: null }, id: row.id });
      await session?.ending?.catch((err) =>
        getLogger().warn({ err, id: row.id }, "session tear-down failed while deleting its organization"),
      );
    }),
  );
  return live.length;
}

export const sessionResources: OrganizationResources = {
  async prepareDeletion(organizationId) {
    const stopped = await stopLiveSessions(organizationId);
    const stateFiles = await stateFilesOf(organizationId);
    return { stopped, afterDeletion: () => removeStateFiles(stateFiles) };
  },
};
