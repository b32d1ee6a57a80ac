// The session API's own request schemas and limits, for the documents and tools that describe it
// (`/openapi.json`, MCP's tool schemas): one source, so what they advertise is what the service accepts.
export { ACTION_SCHEMAS, type ActionType } from "@/lib/computers/actions/actions";
export { batchBody, createTabBody, executeBody, NAMED_ACTION_TYPES } from "@/lib/computers/actions/action-service";
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "@/lib/computers/sessions/list-page";
export { createBodySchema } from "@/lib/computers/sessions/create-options";
export { execBody } from "@/lib/computers/desktop/exec-service";
export { settingsQuery } from "@/lib/computers/live/screencast-stream";
