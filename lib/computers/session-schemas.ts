// The session API's own request schemas and limits, for the documents and tools that describe it
// (`/openapi.json`, MCP's tool schemas): one source, so what they advertise is what the service accepts.
export { ACTION_SCHEMAS, type ActionType } from "@/lib/computers/actions/actions";
export { batchBody, createTabBody, executeBody, NAMED_ACTION_TYPES } from "@/lib/computers/actions/action-service";
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "@/lib/computers/sessions/list-page";
import { createBodySchema } from "@/lib/computers/sessions/create-options";
import { execBody } from "@/lib/computers/desktop/exec-service";

export { createBodySchema, DISPLAY_BOUNDS, type CreateBody } from "@/lib/computers/sessions/create-options";
export { execBody };
export { settingsQuery } from "@/lib/computers/live/screencast-stream";

const display = createBodySchema.shape.display.unwrap().unwrap();

/**
 * The create body's fields as a tool offers them (MCP's create_session takes the display flat): the very
 * schemas POST /computers parses, so a tool cannot advertise a size the service refuses.
 */
export const createFields = {
  kind: createBodySchema.shape.kind,
  width: display.shape.width,
  height: display.shape.height,
  timeout_seconds: createBodySchema.shape.timeout_seconds,
};

/** POST /computers/{id}/exec/sync's fields, for a tool that runs a command. */
export const execFields = execBody.shape;
