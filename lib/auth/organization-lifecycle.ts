// The Settings page's write side: rename (name and slug, slug unique), leave
// (never the last owner) and delete (owner only, confirmed by typing the slug).
// Deleting first asks every part that holds something for the organization
// (OrganizationResources: the sessions are stopped and torn down), then removes the organization; the
// database cascades its members, keys, sessions, saved states and usage rows,
// every server forgets its keys at once (forgetDeletedKeys), and the large
// saved states kept as files are removed.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { forgetDeletedKeys } from "@/lib/auth/api-keys";
import type { Member } from "@/lib/auth/member";
import { type PreparedDeletion, prepareResourcesForDeletion } from "@/lib/auth/organization-resources";
import { getDb } from "@/lib/db";
import { aboveCountedFloor } from "@/lib/limits/counted-admission";
import { getLogger } from "@/lib/logger";

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
    new AppError("conflict", `The slug '${slug}' is taken by another organization; choose another`, {
      param: "slug",
      detail: "slug_taken",
    });
  if (input.slug) {
    const other = await db.organization.findFirst({
      where: { slug: input.slug, id: { not: member.organizationId } },
      select: { id: true },
    });
    if (other) throw slugTaken(input.slug);
  }
  try {
    const org = await db.organization.update({
      where: { id: member.organizationId },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.slug !== undefined ? { slug: input.slug } : {}),
      },
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
  const where = { organizationId_userId: { organizationId: member.organizationId, userId: member.userId } };
  const lastOwner = () =>
    new AppError("conflict", "You are the last owner: make another member an owner first, or delete the organization", {
      detail: "last_owner",
    });
  // The role and the owners are read and the row deleted under one lock: two owners leaving at once
  // cannot both see the other one stay.
  await aboveCountedFloor({
    scope: `owners:${member.organizationId}`,
    floor: 1,
    count: async (tx) => {
      const row = await tx.member.findUnique({ where, select: { role: true } });
      if (row?.role !== "owner") return Number.POSITIVE_INFINITY;
      return tx.member.count({ where: { organizationId: member.organizationId, role: "owner" } });
    },
    write: (tx) => tx.member.delete({ where }),
    refusal: lastOwner,
  });
  return moveLoginSessions(member.userId, member.organizationId);
}

export async function deleteOrganization(
  member: Member,
  body: unknown,
): Promise<NextOrganization & { stopped_sessions: number }> {
  const { confirm_slug } = parseWith(deleteBody, body);
  const db = getDb();
  const org = await db.organization.findUnique({ where: { id: member.organizationId }, select: { slug: true } });
  if (!org) throw new AppError("not_found", "Organization not found");
  if (confirm_slug.trim() !== org.slug) {
    throw new AppError("invalid_request", `Type the organization's slug '${org.slug}' to confirm`, {
      param: "confirm_slug",
    });
  }
  const { stopped, afterDeletion } = await prepareOrganizationDeletion(member.organizationId);
  const next = await moveLoginSessions(member.userId, member.organizationId);
  await db.organization.delete({ where: { id: member.organizationId } });
  await forgetDeletedKeys();
  await afterDeletion();
  getLogger().info({ organizationId: member.organizationId, stoppedSessions: stopped }, "organization deleted");
  return { ...next, stopped_sessions: stopped };
}

/**
 * Before an organization's rows are deleted, by Settings (deleteOrganization) or by Better Auth's
 * own `POST /api/auth/organization/delete` (beforeDeleteOrganization): every part that holds
 * something for it is asked (OrganizationResources: its live sessions are stopped, so no computer
 * outlives its rows). Returns how many sessions stopped, and what to run once the rows are gone.
 */
export function prepareOrganizationDeletion(organizationId: string): Promise<PreparedDeletion> {
  return prepareResourcesForDeletion(organizationId);
}
