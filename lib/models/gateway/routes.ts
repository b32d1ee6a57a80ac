// The /v1 handlers, defined once over ModelHttpRequest (lib/models/gateway/http.ts).
// Which path and method reach each is the route table's business (`resolveModelRoute`).
import {
  jsonReply,
  readModelBody,
  withModelApi,
  type ModelContext,
  type ModelRequest,
} from "@/lib/models/gateway/http";
import { createChatCompletion, createCompletion, createEmbeddings } from "@/lib/models/generation/inference";
import { listModelsAndAliases, modelInfo } from "@/lib/models/registry";
import { chatCompletionSchema, completionSchema, embeddingSchema } from "@/lib/models/gateway/schemas";
import { acceptSimpleChatBody } from "@/lib/models/gateway/simple-chat-body";

const inferenceRequest = ({ req, principal }: ModelContext): ModelRequest => ({
  principal,
  requestId: req.requestId,
  signal: req.signal,
});

export const listModelsRoute = withModelApi("read", ({ principal }) =>
  jsonReply({ object: "list", data: listModelsAndAliases(principal.organizationId) }),
);

export const getModelRoute = withModelApi("read", ({ params, principal }) =>
  jsonReply(modelInfo(params.id!, principal.organizationId)),
);

export const chatCompletionsRoute = withModelApi("inference", async (ctx) =>
  createChatCompletion(inferenceRequest(ctx), await readModelBody(ctx.req, chatCompletionSchema, acceptSimpleChatBody)),
);

export const completionsRoute = withModelApi("inference", async (ctx) =>
  createCompletion(inferenceRequest(ctx), await readModelBody(ctx.req, completionSchema)),
);

export const embeddingsRoute = withModelApi("inference", async (ctx) =>
  createEmbeddings(inferenceRequest(ctx), await readModelBody(ctx.req, embeddingSchema)),
);
