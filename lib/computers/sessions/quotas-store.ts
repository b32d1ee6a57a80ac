// Reading and setting per-organization quotas (QuotaGate). Overrides live on the
// organization row and are set only by the operator (CLI `org quota`): owners of a
// team cannot raise their own quota; the Settings page shows them read-only.
import { AppError } from "@/lib/api/errors";
import type { ComputerKind } from "@/lib/computers/driver";
import {
  defaultQuotas,
  effectiveQuotas,
  type OrganizationQuotas,
  type QuotaOverrides,
} from "@/lib/computers/sessions/quotas";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";

const OVERRIDE_COLUMNS = { maxBrowserSessions: true, maxDesktopSessions: true, sessionCreatesPerMinute: true } as const;

/** Read at every create, so an operator's change takes effect at once, from another process too. */
export async function organizationQuotas(organizationId: string): Promise<OrganizationQuotas> {
  const overrides = await getDb().organization.findUnique({ where: { id: organizationId }, select: OVERRIDE_COLUMNS });
  return effectiveQuotas(defaultQuotas(getEnv()), overrides);
}

export interface QuotaView {
  browser_sessions: { limit: number; in_use: number; overridden: boolean };
  desktop_sessions: { limit: number; in_use: number; overridden: boolean };
  /** 0 = no limit. */
  creates_per_minute: { limit: number; overridden: boolean };
}

export function quotaView(
  quotas: OrganizationQuotas,
  overrides: QuotaOverrides | null,
  usage: Record<ComputerKind, number>,
): QuotaView {
  return {
    browser_sessions: {
      limit: quotas.browserSessions,
      in_use: usage.browser,
      overridden: overrides?.maxBrowserSessions != null,
    },
    desktop_sessions: {
      limit: quotas.desktopSessions,
      in_use: usage.desktop,
      overridden: overrides?.maxDesktopSessions != null,
    },
    creates_per_minute: { limit: quotas.createsPerMinute, overridden: overrides?.sessionCreatesPerMinute != null },
  };
}

/** The organization's quotas and what it uses on this host now (Settings page). */
export async function organizationQuotaView(
  organizationId: string,
  usage: Record<ComputerKind, number>,
): Promise<QuotaView> {
  const overrides = await getDb().organization.findUnique({ where: { id: organizationId }, select: OVERRIDE_COLUMNS });
  return quotaView(effectiveQuotas(defaultQuotas(getEnv()), overrides), overrides, usage);
}

/** A change from the CLI: a number sets, null returns to the server's setting, undefined keeps. */
export type QuotaChange = Partial<QuotaOverrides>;

/** The operator's form (CLI), by slug; answers the effective quotas. */
export async function setOrganizationQuotasBySlug(slug: string, change: QuotaChange) {
  const db = getDb();
  const org = await db.organization.findUnique({ where: { slug }, select: { id: true } });
  if (!org) throw new AppError("not_found", `No organization with slug ${slug}`);
  const overrides = Object.keys(change).length
    ? await db.organization.update({ where: { id: org.id }, data: change, select: OVERRIDE_COLUMNS })
    : await db.organization.findUnique({ where: { id: org.id }, select: OVERRIDE_COLUMNS });
  return quotaView(effectiveQuotas(defaultQuotas(getEnv()), overrides), overrides, { browser: 0, desktop: 0 });
}
