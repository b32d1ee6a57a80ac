// /api/organization — the Settings page: GET the organization, the viewer's
// permissions and the operator's facts; PATCH name/slug (owner, admin);
// DELETE it (owner, body {confirm_slug}).
import { withMember } from "@/lib/routes/with-member";
import { readJson } from "@/lib/api/request";
import { deleteOrganization, renameOrganization } from "@/lib/auth/organization-lifecycle";
import { getOrganizationSettings } from "@/lib/settings/organization-settings";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member }) => Response.json(await getOrganizationSettings(member)));

export const PATCH = withMember(
  async ({ member, req }) => Response.json(await renameOrganization(member, await readJson(req))),
  { roles: ["owner", "admin"] },
);

export const DELETE = withMember(
  async ({ member, req }) => Response.json(await deleteOrganization(member, await readJson(req))),
  { roles: ["owner"] },
);
