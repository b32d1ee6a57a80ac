// Organizations (teams) and memberships beyond what Better Auth's endpoints do:
// personal organizations at sign-up, operator-created ones, and lookups.
import { randomBytes, randomUUID } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import { getDb } from "@/lib/db";

export type Role = "owner" | "admin" | "member";
export const ROLES: readonly Role[] = ["owner", "admin", "member"];

export function slugify(name: string): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "team";
  return `${base}-${randomBytes(3).toString("hex")}`;
}

export async function createOrganization({ name, ownerId }: { name: string; ownerId?: string }) {
  const db = getDb();
  return db.$transaction(async (tx) => {
    const org = await tx.organization.create({ data: { id: randomUUID(), name, slug: slugify(name) } });
    if (ownerId) {
      await tx.member.create({ data: { id: randomUUID(), organizationId: org.id, userId: ownerId, role: "owner" } });
    }
    return org;
  });
}

export async function findOrganizationByName(name: string) {
  const matches = await getDb().organization.findMany({ where: { OR: [{ name }, { slug: name }, { id: name }] } });
  if (matches.length === 0) throw new AppError("not_found", `Organization '${name}' not found`);
  if (matches.length > 1)
    throw new AppError("conflict", `Several organizations are called '${name}'; use its slug or id`);
  return matches[0];
}

export async function addMember({
  organizationId,
  userId,
  role,
}: {
  organizationId: string;
  userId: string;
  role: Role;
}) {
  return getDb().member.upsert({
    where: { organizationId_userId: { organizationId, userId } },
    create: { id: randomUUID(), organizationId, userId, role },
    update: { role },
  });
}

/** The organization a login session acts in: its active one if still a member, else the oldest membership. */
export async function resolveMembership({
  userId,
  activeOrganizationId,
}: {
  userId: string;
  activeOrganizationId?: string | null;
}) {
  const db = getDb();
  if (activeOrganizationId) {
    const active = await db.member.findUnique({
      where: { organizationId_userId: { organizationId: activeOrganizationId, userId } },
    });
    if (active) return active;
  }
  return db.member.findFirst({ where: { userId }, orderBy: { createdAt: "asc" } });
}

export async function countUsers(): Promise<number> {
  return getDb().user.count();
}

export async function hasPendingInvitation(email: string): Promise<boolean> {
  const found = await getDb().invitation.findFirst({
    where: { email: email.toLowerCase(), status: "pending", expiresAt: { gt: new Date() } },
  });
  return found !== null;
}

/** Sessions of the user that act in no organization yet now act in this one. */
export async function activateOrganizationForSessions({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string;
}) {
  await getDb().session.updateMany({
    where: { userId, activeOrganizationId: null },
    data: { activeOrganizationId: organizationId },
  });
}

export async function countOwners(organizationId: string): Promise<number> {
  return getDb().member.count({ where: { organizationId, role: "owner" } });
}
