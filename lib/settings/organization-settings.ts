// The Settings page's read side: the organization (name, slug), what the
// viewer's role lets them do, and the operator-level facts a team needs to
// plan around. Facts say what is offered, never how: no proxy URL, no
// upstream URL or key.
import type { Member } from "@/lib/auth/member";
import { notFound } from "@/lib/api/errors";
import {
  cdpEnabled,
  availability,
  liveUsage,
  organizationQuotaView,
  type QuotaView,
} from "@/lib/computers/host-capabilities";
import { getSessionManager } from "@/lib/computers/registry";
import { countOwners } from "@/lib/auth/organizations";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { listModels } from "@/lib/models/registry";

export interface OperatorFacts {
  plan_max_lifetime_seconds: number;
  proxy_configured: boolean;
  cdp_offered: boolean;
  desktop: { available: boolean; reason: string | null };
  models: { id: string; backend: "local" | "upstream"; placeholder: boolean }[];
}

export interface OrganizationSettings {
  organization: { id: string; name: string; slug: string; created_at: string };
  role: Member["role"];
  can_edit: boolean;
  can_delete: boolean;
  /** Whether the viewer may leave: not when they are its last owner. */
  can_leave: boolean;
  leave_blocked_reason: string | null;
  member_count: number;
  facts: OperatorFacts;
  /** Session quotas (set by the operator, read-only here) and this host's current use. */
  quotas: QuotaView;
}

/** Desktop availability by the check the session manager uses: a desktop driver registered and healthy. */
function desktopFacts(): OperatorFacts["desktop"] {
  const driver = getSessionManager().driverFor("desktop");
  if (!driver) {
    const check = availability();
    return { available: false, reason: check.ok ? "Desktop sessions are not offered by this server" : check.reason };
  }
  const health = driver.health();
  return {
    available: health.ok,
    reason: health.ok ? null : (health.message ?? "The desktop driver reports a problem"),
  };
}

export function operatorFacts(): OperatorFacts {
  const env = getEnv();
  return {
    plan_max_lifetime_seconds: env.PLAN_MAX_LIFETIME_SECONDS,
    proxy_configured: Boolean(env.ADVANCED_PROXY_URL),
    cdp_offered: cdpEnabled(),
    desktop: desktopFacts(),
    models: listModels().map((m) => ({
      id: m.id,
      backend: m.metadata.backend === "local" ? "local" : "upstream",
      placeholder: m.metadata.placeholder === true,
    })),
  };
}

export async function getOrganizationSettings(member: Member): Promise<OrganizationSettings> {
  const db = getDb();
  const [org, owners, members, quotas] = await Promise.all([
    db.organization.findUnique({ where: { id: member.organizationId } }),
    countOwners(member.organizationId),
    db.member.count({ where: { organizationId: member.organizationId } }),
    organizationQuotaView(member.organizationId, liveUsage(getSessionManager().sessionsView(), member.organizationId)),
  ]);
  if (!org) throw notFound("Organization");
  const lastOwner = member.role === "owner" && owners <= 1;
  return {
    organization: { id: org.id, name: org.name, slug: org.slug, created_at: org.createdAt.toISOString() },
    role: member.role,
    can_edit: member.role === "owner" || member.role === "admin",
    can_delete: member.role === "owner",
    can_leave: !lastOwner,
    leave_blocked_reason: lastOwner
      ? "You are the last owner: make another member an owner first, or delete the organization"
      : null,
    member_count: members,
    facts: operatorFacts(),
    quotas,
  };
}
