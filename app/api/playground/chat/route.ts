// POST /api/playground/chat — the playground's chat (useChat's transport): the
// member's organization's model layer, answered as an AI SDK UI message stream.
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { streamPlaygroundChat } from "@/lib/models/playground";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, requestId, member }) =>
  streamPlaygroundChat({
    organizationId: member.organizationId,
    requestId,
    signal: req.signal,
    body: await readJson(req),
  }),
);
