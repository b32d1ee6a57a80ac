import { withMember } from "@/lib/routes/with-member";
import { testStoredModel } from "@/lib/models/model-settings";

/** One short real request to the model; the answer or the provider's error, and the latency. */
export const POST = withMember(
  async ({ req, member, params, requestId }) =>
    Response.json(
      await testStoredModel({ organizationId: member.organizationId, id: params.id!, requestId, signal: req.signal }),
    ),
  { roles: ["owner"] },
);
