// Shared pieces of the replays tests: downloading a replay, reading an MP4 with ffprobe,
// waiting until a replay is finished, and backdating a replay's row in the server's database.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { api, type Target } from "./computers-fixtures";
import { waitFor } from "./wait-for";

export interface Probed {
  codec: string;
  width: number;
  height: number;
  durationSeconds: number;
}

/** ffprobe's reading of an MP4 (its first video stream and the container's duration). */
export function probe(data: Buffer): Probed {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cabin-replay-")), "replay.mp4");
  writeFileSync(file, data);
  const out = execFileSync("ffprobe", [
    ...["-v", "error", "-select_streams", "v:0"],
    ...["-show_entries", "stream=codec_name,width,height:format=duration", "-of", "json", file],
  ]).toString();
  const parsed = JSON.parse(out) as {
    streams: { codec_name: string; width: number; height: number }[];
    format: { duration: string };
  };
  const stream = parsed.streams[0]!;
  return {
    codec: stream.codec_name,
    width: stream.width,
    height: stream.height,
    durationSeconds: Number(parsed.format.duration),
  };
}

export async function download(
  sessionId: string,
  replayId: string,
  target: Target & { base: string; key: string },
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${target.base}/computers/${sessionId}/replays/${replayId}`, {
    headers: { authorization: `Bearer ${target.key}`, ...headers },
  });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

/** Polls the session's list until the replay is no longer recording or processing; returns its row. */
export async function finished(sessionId: string, replayId: string, target: Target, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const list = await api("GET", `/computers/${sessionId}/replays`, undefined, target);
      return (list.body.data as any[]).find((r) => r.replay_id === replayId);
    },
    {
      until: (r) => r && (r.status === "ready" || r.status === "failed"),
      timeoutMs,
      message: `replay ${replayId} finished`,
    },
  );
}

/** Moves a replay's finished_at back by `days` in the server's database (SQLite or PostgreSQL). */
export async function backdateReplay(databaseUrl: string, replayId: string, days: number): Promise<void> {
  const at = new Date(Date.now() - days * 86_400_000);
  if (databaseUrl.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`UPDATE "replays" SET "finishedAt" = $1, "startedAt" = $1 WHERE "id" = $2`, [at, replayId]);
    } finally {
      await client.end();
    }
    return;
  }
  type Sqlite = { prepare(sql: string): { run(...args: unknown[]): unknown }; close(): void };
  const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => Sqlite;
  const db = new Database(databaseUrl.replace(/^file:/, ""));
  try {
    // DateTime as Prisma stores it in SQLite: ISO 8601 with "+00:00".
    const iso = at.toISOString().replace("Z", "+00:00");
    db.prepare(`UPDATE "replays" SET "finishedAt" = ?, "startedAt" = ? WHERE "id" = ?`).run(iso, iso, replayId);
  } finally {
    db.close();
  }
}
