// Settings of session files (docs/files.md) and replays (docs/replays.md): uploads, captured
// downloads, replays' retention, and the organization's storage quota they count against.
// Part of `envSchema` (lib/env.ts), the only reader of the environment; no domain imports here.
import { z } from "zod";

export const fileSettings = {
  FILES_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(512 * 1024 * 1024)
    .describe(
      "Largest file, in bytes, one upload (POST /computers/{id}/files) or one captured download may be; a " +
        "bigger upload is answered 413 and nothing is kept.",
    ),
  FILES_RETENTION_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 365)
    .default(24)
    .describe(
      "Hours a session's files (uploads and downloads) are kept after the session ended; then the files reaper " +
        "deletes them.",
    ),
  REPLAY_RETENTION_DAYS: z.coerce
    .number()
    .min(0.0001)
    .max(3650)
    .default(7)
    .describe(
      "Days a replay (a session's recorded video) is kept after its recording finished, whether or not its " +
        "session still runs; then the replays reaper deletes it.",
    ),
  ORG_STORAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 1024 * 1024 * 1024)
    .describe(
      "Bytes of stored files one organization may hold at once (session files and replays). 0: no limit. Past " +
        "it an upload is answered 413 (storage_quota_exceeded).",
    ),
};
