// GET /openapi.json: the OpenAPI 3.1 document of /computers and /v1, built
// once per process from the zod schemas (computersPaths, modelPaths) and kept.
// Only `servers` is per request (the caller's public origin), so a Host header
// cannot make the cache grow.
import { agentHandoffPaths, agentTasksTag } from "@/lib/routes/openapi/agent-handoff";
import { agentTaskPaths } from "@/lib/routes/openapi/agent-tasks";
import { computersComponents, computersPaths } from "@/lib/routes/openapi/computers";
import { computersFilesPaths, filesComponents, filesTag } from "@/lib/routes/openapi/computers-files";
import { credentialsComponents, credentialsPaths, credentialsTag } from "@/lib/routes/openapi/credentials";
import { computersReplaysPaths, replaysComponents, replaysTag } from "@/lib/routes/openapi/computers-replays";
import { jsonSchema, type JsonSchema } from "@/lib/routes/openapi/build";
import { profilesComponents, profilesPaths, profilesTag } from "@/lib/routes/openapi/profiles";
import * as shapes from "@/lib/routes/openapi/responses";
import { modelComponents, modelPaths } from "@/lib/routes/openapi/v1";
import { singleton, singletonKey } from "@/lib/singleton";

const DESCRIPTION = [
  "Cabin: remote browser and desktop sessions (`/computers`) and an OpenAI-compatible model API (`/v1`).",
  "Every operation takes `Authorization: Bearer <API key>`; the same key serves both surfaces.",
  "Errors of /computers are `{error: {code, message, param?}}`; errors of /v1 are OpenAI's `{error: {message, " +
    "type, param, code}}`.",
  "Answers a retry cannot change carry `x-should-retry: false`; 429 and 503 carry `retry-after`.",
  "Live view over WebSocket (`endpoints.ws`), CDP (`endpoints.cdp`) and VNC (`endpoints.vnc`) are upgrades, " +
    "listed on the session object rather than here.",
].join("\n\n");

function responseComponents(): Record<string, JsonSchema> {
  const named: Record<string, Parameters<typeof jsonSchema>[0]> = {
    ApiError: shapes.apiErrorEnvelope,
    OpenAIError: shapes.openaiErrorEnvelope,
    Session: shapes.sessionObject,
    SessionListItem: shapes.sessionListItem,
    ActionResult: shapes.actionResult,
    BatchResult: shapes.batchResult,
    PageContext: shapes.pageContext,
    TabList: shapes.tabList,
    TabCreated: shapes.tabCreated,
    TabSwitched: shapes.tabSwitched,
    TabClosed: shapes.tabClosed,
    ExecResult: shapes.execResult,
    ExecLine: shapes.execLine,
    ScreencastEvent: shapes.screencastEvent,
    SessionEvent: shapes.sessionEvent,
    Model: shapes.model,
    ModelList: shapes.modelList,
    ChatCompletion: shapes.chatCompletion,
    ChatCompletionChunk: shapes.chatCompletionChunk,
    TextCompletion: shapes.textCompletion,
    EmbeddingList: shapes.embeddingList,
    Response: shapes.responseObject,
  };
  return Object.fromEntries(Object.entries(named).map(([name, schema]) => [name, jsonSchema(schema, "output")]));
}

export function buildOpenApiDocument() {
  return {
    openapi: "3.1.0",
    info: { title: "Cabin API", version: "1.0.0", description: DESCRIPTION },
    tags: [
      {
        name: "Sessions",
        description: "Create, read, keep alive and end browser and desktop sessions",
        "x-surface": "computers",
      },
      {
        name: "Actions",
        description: "Mouse, keyboard, screenshots, navigation: each answers an ActionResult",
        "x-surface": "computers",
      },
      {
        name: "Tabs",
        description: "Tabs of browser sessions, and of a desktop's own Chromium: list, open, switch and close",
        "x-surface": "computers",
      },
      { name: "Exec", description: "Shell commands in desktop sessions", "x-surface": "computers" },
      { name: "Streams", description: "Live view, session events and screenshot files", "x-surface": "computers" },
      filesTag,
      agentTasksTag,
      credentialsTag,
      profilesTag,
      replaysTag,
      { name: "Models", description: "The models this server serves", "x-surface": "v1" },
      { name: "Inference", description: "Chat completions, legacy completions and embeddings", "x-surface": "v1" },
      { name: "Responses", description: "OpenAI Responses format, with the computer-use tool", "x-surface": "v1" },
    ],
    paths: {
      ...computersPaths(),
      ...computersFilesPaths(),
      ...agentTaskPaths(),
      ...agentHandoffPaths(),
      ...credentialsPaths(),
      ...profilesPaths(),
      ...computersReplaysPaths(),
      ...modelPaths(),
    },
    components: {
      schemas: {
        ...responseComponents(),
        ...computersComponents(),
        ...filesComponents(),
        ...credentialsComponents(),
        ...profilesComponents(),
        ...replaysComponents(),
        ...modelComponents(),
      },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An organization's API key (keys page of the dashboard)",
        },
        capabilityToken: {
          type: "apiKey",
          in: "query",
          name: "token",
          description: "A short-lived signed token from a URL the server gave out (endpoints, screenshot_url)",
        },
      },
    },
    security: [{ bearerAuth: [] }],
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

const documentKey = singletonKey<OpenApiDocument>("api.openapiDocument");

/** The document with this server's public origin as its server. */
export function openApiDocument(origin: string): OpenApiDocument & { servers: { url: string }[] } {
  return { ...singleton(documentKey, buildOpenApiDocument), servers: [{ url: origin }] };
}
