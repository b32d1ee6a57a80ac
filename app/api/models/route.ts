// Settings → Models (docs/models.md, "Models set up in the dashboard"): every member lists, owners add.
import { parseBody } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { createModelBody, modelSettings, createStoredModel } from "@/lib/models/model-settings";

export const GET = withMember(async ({ member }) => Response.json(await modelSettings(member)));

export const POST = withMember(
  async ({ req, member }) =>
    Response.json(
      await createStoredModel(member.organizationId, member.userId, await parseBody(req, createModelBody)),
      {
        status: 201,
      },
    ),
  { roles: ["owner"] },
);
