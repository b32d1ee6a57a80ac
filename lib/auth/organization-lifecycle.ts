// The Settings page's write side: rename (name and slug, slug unique), leave
// (never the last owner) and delete (owner only, confirmed by typing the slug).
// Deleting stops the organization's live sessions through the session service
// first and waits for their tear-down, then removes the organization; the
// database cascades its members, keys, sessions, saved states and usage rows,
// every server forgets its keys at once (forgetDeletedKeys), and the large
// saved states kept as files are removed.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { forgetDeletedKeys } from "@/lib/auth/api-keys";
import type { Member } from "@/lib/auth/member";
import { countOwners } from "@/lib/auth/organization-settings";
import { LIVE_STATUSES } from "@/lib/computers/sessions/lifecycle";
import { getSessionManager } from "@/lib/computers/registry";
import { deleteComputer } from "@/lib/computers/service";
import { removeStateFiles, stateFilesOf } from "@/lib/computers/state/state-store";
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";
import { forgetSpendOf } from "@/lib/models/limits/budget";

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const renameBody = z.strictObject({
  name: z.string().trim().min(1, "the name cannot be empty").max(80, "at most 80 characters").optional(),
  slug: z
    .string()
    .trim()
    .min(3, "at least 3 characters")
    .max(48, "at most 48 characters")
    .regex(SLUG_PATTERN, "lowercase letters, digits and single hyphens (e.g. acme-labs)")
    .optional(),
});

const deleteBody = z.strictObject({ confirm_slug: z.string() });

/** Where the person lands after leaving or deleting: another team, or none (the "create a team" page). */
export interface NextOrganization {
  next_organization: { id: string; name: string } | null;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === "P2002";

export async function renameOrganization(member: Member, body: unknown) {
  const input = parseWith(renameBody, body);
  if (input.name === undefined && input.slug === undefined) {
    throw new AppError("invalid_request", "Send 'name', 'slug' or both", { param: "name" });
  }
  const db = getDb();
  const slugTaken = (slug: string) =>
    new AppError("conflict", `The slug '${slug}' is taken by another organization; choose another`, { param: "slug", detail: "slug_taken" });
  if (input.slug) {
    const other = await db.organization.findFirst({ where: { slug: input.slug, id: { not: member.organizationId } }, select: { id: true } });
    if (other) throw slugTaken(input.slug);
  }
  try {
    const org = await db.organization.update({
      where: { id: member.organizationId },
      data: { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.slug !== undefined ? { slug: input.slug } : {}) },
    });
    return { id: org.id, name: org.name, slug: org.slug };
  } catch (err) {
    // Another rename took the slug between the check and the update.
    if (isUniqueViolation(err) && input.slug) throw slugTaken(input.slug);
    throw err;
  }
}

/** Points the person's login sessions that acted in `left` at their next team (or none). */
async function moveLoginSessions(userId: string, left: string): Promise<NextOrganization> {
  const db = getDb();
  const next = await db.member.findFirst({
    where: { userId, organizationId: { not: left } },
    orderBy: { createdAt: "asc" },
    include: { organization: { select: { id: true, name: true } } },
  });
  await db.session.updateMany({
    where: { userId, activeOrganizationId: left },
    data: { activeOrganizationId: next?.organizationId ?? null },
  });
  return { next_organization: next ? { id: next.organization.id, name: next.organization.name } : null };
}

export async function leaveOrganization(member: Member): Promise<NextOrganization> {
  if (member.role === "owner" && (await countOwners(member.organizationId)) <= 1) {
    throw new AppError("conflict", "You are the last owner: make another member an owner first, or delete the organization", {
      detail: "last_owner",
    });
  }
  await getDb().member.delete({ where: { organizationId_userId: { organizationId: member.organizationId, userId: member.userId } } });
  return moveLoginSessions(member.userId, member.organizationId);
}

/** Stops every live session of the organization and waits until each is torn down (state saved, computer released). */
export async function stopLiveSessions(organizationId: string) {
  const manager = getSessionManager();
  const live = await getDb().computer.findMany({
    where: { organizationId, status: { in: [...LIVE_STATUSES] } },
    select: { id: true, hostId: true },
  });
  const elsewhere = live.filter((row) => row.hostId !== manager.hostId);
  if (elsewhere.length) {
    throw new AppError("conflict", `${elsewhere.length} live session(s) run on another host (${elsewhere[0]!.hostId}); stop them there first`, {
      detail: "sessions_on_other_host",
    });
  }
  await Promise.all(
    live.map(async (row) => {
      const session = manager.get(row.id);
      await deleteComputer({ principal: { organizationId, apiKeyId: null }, id: row.id });
      await session?.ending?.catch((err) => getLogger().warn({ err, id: row.id }, "session tear-down failed while deleting its organization"));
    }),
  );
  return live.length;
}

export async function deleteOrganization(member: Member, body: unknown): Promise<NextOrganization & { stopped_sessions: number }> {
  const { confirm_slug } = parseWith(deleteBody, body);
  const db = getDb();
  const org = await db.organization.findUnique({ where: { id: member.organizationId }, select: { slug: true } });
  if (!org) throw new AppError("not_found", "Organization not found");
  if (confirm_slug.trim() !== org.slug) {
    throw new AppError("invalid_request", `Type the organization's slug '${org.slug}' to confirm`, { param: "confirm_slug" });
  }
  const { stopped, afterDeletion } = await prepareOrganizationDeletion(member.organizationId);
  const next = await moveLoginSessions(member.userId, member.organizationId);
  await db.organization.delete({ where: { id: member.organizationId } });
  await forgetDeletedKeys();
  await afterDeletion();
  getLogger().info({ organizationId: member.organizationId, stoppedSessions: stopped }, "organization deleted");
  return { ...next, stopped_sessions: stopped };
}

/** Collected before a deletion: the keys' rows go with the organization, their month totals do not. */
async function keyIdsOf(organizationId: string): Promise<string[]> {
  return (await getDb().apiKey.findMany({ where: { organizationId }, select: { id: true } })).map((key) => key.id);
}

/**
 * Before an organization's rows are deleted, by Settings (deleteOrganization) or by Better Auth's
 * own `POST /api/auth/organization/delete` (beforeDeleteOrganization): stops its live sessions, so
 * no computer outlives its rows. Returns how many, and what to run once the rows are gone (the large
 * saved states kept as files, the month totals).
 */
export async function prepareOrganizationDeletion(organizationId: string): Promise<{ stopped: number; afterDeletion: () => Promise<void> }> {
  const stopped = await stopLiveSessions(organizationId);
  const stateFiles = await stateFilesOf(organizationId);
  const keyIds = await keyIdsOf(organizationId);
  return {
    stopped,
    afterDeletion: async () => {
      await removeStateFiles(stateFiles);
      await forgetSpendOf(organizationId, keyIds);
    },
  };
}
