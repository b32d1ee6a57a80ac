// The replays operations of the OpenAPI document (docs/replays.md): start, stop, list,
// download (with Range) and delete a session's recordings.
import { z } from "zod";
import { jsonSchema, ok, operation, pathParam, ref, requestBody, type JsonSchema } from "@/lib/routes/openapi/build";
import { startReplaySchema } from "@/lib/computers/session-replays";

const id = pathParam("id", "Session id (comp_<hex>)", "comp_0123456789abcdef");
const replayId = pathParam("replay_id", "Replay id (rep_<hex>)", "rep_0123456789abcdef01234567");

const replay = z.object({
  replay_id: z.string().describe("rep_<hex>"),
  session_id: z.string(),
  task_id: z.string().nullable().describe("The agent task that recorded it, or null"),
  status: z
    .enum(["recording", "processing", "ready", "failed"])
    .describe("processing: stopped, its MP4 being finished; failed: see reason"),
  reason: z.string().optional().describe("Why a failed replay failed (a full disk, the server stopping)"),
  started_at: z.string().describe("ISO 8601 time (UTC)"),
  finished_at: z.string().nullable().describe("When the recording stopped; null while it records"),
  duration_seconds: z.number().nullable().describe("The video's length, once ready"),
  framerate: z.number().int().describe("Frames per second of the video"),
  max_duration_seconds: z.number().int().nullable(),
  size_bytes: z.number().int().describe("The MP4's bytes, once ready (counted in ORG_STORAGE_MAX_BYTES)"),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  replay_view_url: z.string().describe("Where the MP4 is downloaded (GET, with the API key)"),
});

export function replaysComponents(): Record<string, JsonSchema> {
  return {
    Replay: jsonSchema(replay, "output"),
    ReplayList: jsonSchema(z.object({ data: z.array(replay) }), "output"),
  };
}

export function computersReplaysPaths(): Record<string, Record<string, unknown>> {
  return {
    "/computers/{id}/replays": {
      post: operation(
        "computers",
        "startReplay",
        {
          tag: "Replays",
          summary: "Start recording the session's screen as an MP4",
          description:
            "One replay records at a time per session (409 names the running one). Stops by POST …/stop, after " +
            "max_duration_seconds, or when the session ends. 413 when the organization's storage " +
            "(ORG_STORAGE_MAX_BYTES) is full.",
          parameters: [id],
          // No example body: documented examples are checked to answer an ActionResult (200); this answers a 201
          // replay.
          requestBody: requestBody(jsonSchema(startReplaySchema), false),
          responses: { "201": ok("The replay, recording", ref("Replay")) },
        },
        ["400", "401", "404", "409", "413"],
      ),
      get: operation(
        "computers",
        "listReplays",
        {
          tag: "Replays",
          summary: "List the session's replays (also after it ended)",
          parameters: [id],
          responses: { "200": ok("Replays, oldest first", ref("ReplayList")) },
        },
        ["401", "404"],
      ),
    },
    "/computers/{id}/replays/{replay_id}": {
      get: operation(
        "computers",
        "getReplay",
        {
          tag: "Replays",
          summary: "The replay's MP4 (H.264); Range requests answer 206 for seeking",
          parameters: [
            id,
            replayId,
            { name: "range", in: "header", required: false, schema: { type: "string" }, example: "bytes=0-1023" },
          ],
          responses: {
            "200": {
              description: "The video",
              content: { "video/mp4": { schema: { type: "string", format: "binary" } } },
            },
            "206": {
              description: "The asked byte range",
              content: { "video/mp4": { schema: { type: "string", format: "binary" } } },
            },
            "202": ok("Still recording or being finished: retry after `retry-after` seconds", ref("Replay")),
          },
        },
        ["401", "404", "409"],
      ),
      delete: operation(
        "computers",
        "deleteReplay",
        {
          tag: "Replays",
          summary: "Delete a replay (a recording one stops first)",
          parameters: [id, replayId],
          responses: { "204": { description: "Deleted" } },
        },
        ["401", "404"],
      ),
    },
    "/computers/{id}/replays/{replay_id}/stop": {
      post: operation(
        "computers",
        "stopReplay",
        {
          tag: "Replays",
          summary: "Stop recording; the replay is processing until its MP4 is finished, then ready",
          parameters: [id, replayId],
          responses: { "200": ok("The replay, with finished_at", ref("Replay")) },
        },
        ["401", "404"],
      ),
    },
  };
}

export const replaysTag = {
  name: "Replays",
  description: "Recordings of sessions' screens as MP4 videos",
  "x-surface": "computers",
};
