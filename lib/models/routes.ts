// The /v1 handlers, defined once: app/v1/**/route.ts re-export them for Next,
// and the fast path (lib/models/fast-path.ts) calls the same functions when the
// custom server hands /v1 requests over directly.
import { parseBody } from "@/lib/api/request";
import { methodsNotAllowed, unknownPath, withModelApi } from "@/lib/models/http";
import { createChatCompletion, createCompletion, createEmbeddings } from "@/lib/models/inference";
import { getModel, listModels } from "@/lib/models/registry";
import { chatCompletionSchema, completionSchema, embeddingSchema } from "@/lib/models/schemas";

export const listModelsRoute = withModelApi("read", () => Response.json({ object: "list", data: listModels() }));

export const getModelRoute = withModelApi("read", ({ params }) => Response.json(getModel(params.id!).info));

export const chatCompletionsRoute = withModelApi("inference", async ({ req, requestId, principal }) =>
  createChatCompletion({ principal, requestId, signal: req.signal }, await parseBody(req, chatCompletionSchema)),
);

export const completionsRoute = withModelApi("inference", async ({ req, requestId, principal }) =>
  createCompletion({ principal, requestId, signal: req.signal }, await parseBody(req, completionSchema)),
);

export const embeddingsRoute = withModelApi("inference", async ({ req, requestId, principal }) =>
  createEmbeddings({ principal, requestId, signal: req.signal }, await parseBody(req, embeddingSchema)),
);

export const postOnly = methodsNotAllowed("POST");

export { unknownPath };
