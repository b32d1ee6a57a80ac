// The /v1/responses handlers (paths in `resolveModelRoute`'s table).
import { AppError } from "@/lib/api/errors";
import { jsonReply, readModelBody, withModelApi } from "@/lib/models/gateway/http";
import { createResponse } from "@/lib/models/responses/create";
import { responsesCreateSchema } from "@/lib/models/responses/schema";
import { loadResponse } from "@/lib/models/responses/store";

export const createResponseRoute = withModelApi("inference", async ({ req, principal }) =>
  createResponse(
    { principal, requestId: req.requestId, signal: req.signal },
    await readModelBody(req, responsesCreateSchema),
  ),
);

export const getResponseRoute = withModelApi("read", async ({ params, principal }) =>
  jsonReply((await loadResponse(principal.organizationId, params.id!)).response),
);

/**
 * Every response here is produced within its request (there are no background
 * responses), so a stored one is already finished: OpenAI's answer for that is
 * a 400, "Only background responses can be cancelled". Unknown ids are a 404.
 */
export const cancelResponseRoute = withModelApi("read", async ({ params, principal }) => {
  await loadResponse(principal.organizationId, params.id!);
  throw new AppError(
    "invalid_request",
    "Only background responses can be cancelled; this response has already completed",
    { detail: "response_not_cancellable" },
  );
});
