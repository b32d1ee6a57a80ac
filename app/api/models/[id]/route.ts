import { parseBody } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { updateModelBody, deleteStoredModel, updateStoredModel } from "@/lib/models/model-settings";

export const PATCH = withMember(
  async ({ req, member, params }) =>
    Response.json(await updateStoredModel(member.organizationId, params.id!, await parseBody(req, updateModelBody))),
  { roles: ["owner"] },
);

export const DELETE = withMember(
  async ({ member, params }) => Response.json(await deleteStoredModel(member.organizationId, params.id!)),
  { roles: ["owner"] },
);
