// POST /api/playground/chat — the playground's chat (useChat's transport): the
// member's organization's model layer, answered as an AI SDK UI message stream.
import { parseBody } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { playgroundChatSchema, streamPlaygroundChat } from "@/lib/models/playground";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, requestId, member }) =>
  streamPlaygroundChat({
    organizationId: member.organizationId,
    requestId,
    signal: req.signal,
    chat: await parseBody(req, playgroundChatSchema),
  }),
);
