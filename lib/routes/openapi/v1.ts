// The /v1 operations of the OpenAPI document, from the request schemas the
// handlers validate with (chatCompletionSchema, completionSchema,
// embeddingSchema, responsesCreateSchema). Every route of the route table
// must be here: `modelPaths` refuses to build a document that misses one.
import {
  modelRouteList,
  responsesCreateSchema,
  chatCompletionSchema,
  completionSchema,
  embeddingSchema,
} from "@/lib/models/model-api";
import { jsonSchema, ok, operation, pathParam, ref, requestBody, type JsonSchema } from "@/lib/routes/openapi/build";

const modelId = pathParam("id", "Model id (may contain '/')", "svc.sm-1");
const responseId = pathParam("id", "Response id", "resp_0123456789abcdef");

export function modelComponents(): Record<string, JsonSchema> {
  return {
    ChatCompletionRequest: jsonSchema(chatCompletionSchema),
    CompletionRequest: jsonSchema(completionSchema),
    EmbeddingRequest: jsonSchema(embeddingSchema),
    ResponseCreateRequest: jsonSchema(responsesCreateSchema),
  };
}

/** JSON, or SSE chunks when the body says `stream: true`. */
const jsonOrStream = (description: string, json: string, chunk: string) => ({
  description,
  content: { "application/json": { schema: ref(json) }, "text/event-stream": { schema: ref(chunk) } },
});

const PATHS: Record<string, Record<string, unknown>> = {
  "/v1/models": {
    get: operation(
      "v1",
      "listModels",
      { tag: "Models", summary: "List models", responses: { "200": ok("Models", ref("ModelList")) } },
      ["401", "429"],
    ),
  },
  "/v1/models/{id}": {
    get: operation(
      "v1",
      "getModel",
      {
        tag: "Models",
        summary: "Read one model",
        parameters: [modelId],
        responses: { "200": ok("The model", ref("Model")) },
      },
      ["401", "404", "429"],
    ),
  },
  "/v1/chat/completions": {
    post: operation("v1", "createChatCompletion", {
      tag: "Inference",
      summary: "Chat completion (optionally streamed as SSE)",
      description:
        "Unknown parameters are a 400 naming them. With `stream: true` the answer is `text/event-stream`: " +
        "`data: {chunk}` events, then `data: [DONE]`.",
      requestBody: requestBody(ref("ChatCompletionRequest"), true, {
        model: "svc.sm-1",
        messages: [{ role: "user", content: "Say hello" }],
        max_tokens: 8,
      }),
      responses: { "200": jsonOrStream("The completion, or its chunks", "ChatCompletion", "ChatCompletionChunk") },
    }),
  },
  "/v1/completions": {
    post: operation("v1", "createCompletion", {
      tag: "Inference",
      summary: "Legacy text completion",
      requestBody: requestBody(ref("CompletionRequest"), true, {
        model: "svc.sm-1",
        prompt: "Once upon a time",
        max_tokens: 8,
      }),
      responses: { "200": jsonOrStream("The completion, or its chunks", "TextCompletion", "ChatCompletionChunk") },
    }),
  },
  "/v1/embeddings": {
    post: operation("v1", "createEmbeddings", {
      tag: "Inference",
      summary: "Embeddings",
      requestBody: requestBody(ref("EmbeddingRequest"), true, { model: "svc.sm-1", input: "hello" }),
      responses: { "200": ok("The vectors", ref("EmbeddingList")) },
    }),
  },
  "/v1/responses": {
    post: operation("v1", "createResponse", {
      tag: "Responses",
      summary: "Create a response (OpenAI Responses format, computer_use_preview tool)",
      requestBody: requestBody(ref("ResponseCreateRequest"), true, {
        model: "svc.sm-1",
        input: "Say hello",
        max_output_tokens: 8,
      }),
      responses: { "200": jsonOrStream("The response, or its events", "Response", "ChatCompletionChunk") },
    }),
  },
  "/v1/responses/{id}": {
    get: operation(
      "v1",
      "getResponse",
      {
        tag: "Responses",
        summary: "Read a stored response",
        parameters: [responseId],
        responses: { "200": ok("The response", ref("Response")) },
      },
      ["401", "404"],
    ),
  },
  "/v1/responses/{id}/cancel": {
    post: operation(
      "v1",
      "cancelResponse",
      {
        tag: "Responses",
        summary: "Cancel a background response",
        parameters: [responseId],
        responses: { "200": ok("The response", ref("Response")) },
      },
      ["400", "401", "404"],
    ),
  },
};

export function modelPaths(): Record<string, Record<string, unknown>> {
  for (const route of modelRouteList()) {
    for (const method of route.methods) {
      if (!PATHS[route.path]?.[method.toLowerCase()])
        throw new Error(`OpenAPI: ${method} ${route.path} is in the /v1 route table but not documented`);
    }
  }
  return PATHS;
}
