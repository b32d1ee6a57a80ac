// What the dashboard shell needs about the person logged in.
import { AppError } from "@/lib/api/errors";
import type { Member } from "@/lib/auth/member";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db";

export async function describeMember(member: Member) {
  const memberships = await getDb().member.findMany({
    where: { userId: member.userId },
    include: { organization: { select: { id: true, name: true, slug: true } } },
    orderBy: { createdAt: "asc" },
  });
  return {
    user: { id: member.userId, email: member.email, name: member.name },
    organization: memberships.find((m) => m.organizationId === member.organizationId)?.organization ?? null,
    role: member.role,
    organizations: memberships.map((m) => ({ ...m.organization, role: m.role })),
  };
}

/** A new key for the member's organization; the secret is in this answer only. */
export async function createKeyAs(member: Member, name: string) {
  const created = await createApiKey({ organizationId: member.organizationId, name, createdById: member.userId });
  return {
    id: created.id,
    key: created.key,
    prefix: created.prefix,
    name: created.name,
    organization_id: created.organizationId,
  };
}

/** Owners and admins revoke any key of their organization; members only the keys they created. */
export async function revokeKeyAs(member: Member, keyId: string) {
  if (member.role === "member") {
    const key = await getDb().apiKey.findFirst({ where: { id: keyId, organizationId: member.organizationId } });
    if (!key) throw new AppError("not_found", "API key not found");
    if (key.createdById !== member.userId) {
      throw new AppError("forbidden", "Only owners, admins or the key's creator can revoke it");
    }
  }
  const revoked = await revokeApiKey({ organizationId: member.organizationId, id: keyId });
  return { id: revoked.id, revoked_at: revoked.revokedAt?.toISOString() ?? null };
}
