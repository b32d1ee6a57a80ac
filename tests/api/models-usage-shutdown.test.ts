// @needs server light postgres
// Usage rows are written in batches about once a second, on SQLite by a writer
// thread (SqliteWriterThread): a server stopped (SIGTERM) right after answering
// must still write every row it held, exactly, before it exits. Also run on
// PostgreSQL (CABIN_TEST_DATABASE_URL), where the rows go through Prisma.
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { postV1, scriptedUpstream } from "./models-helpers";

const REQUESTS = 40;
let upstream: LoopbackServer;
let gateway: TestServer | undefined;
let key: string;

beforeAll(async () => {
  upstream = await listenOnLoopback(
    createServer(
      scriptedUpstream([], (body, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-up",
            object: "chat.completion",
            created: 1,
            model: body.model,
            choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
          }),
        );
      }),
    ),
  );
  const models = {
    "stop.up": {
      backends: [{ backend: "openai-compatible", name: "up-one", url: `${upstream.url}/v1` }],
      prices: { input: 2, output: 5 },
    },
  };
  gateway = await startServer({ env: { MODELS: JSON.stringify(models) } });
  key = await createOrgKey(gateway, "Shutdown Org");
}, 240_000);

afterAll(async () => {
  await gateway?.destroy();
  await upstream?.close();
});

describe("usage rows at shutdown", () => {
  it("writes every row still held when the server is stopped right after answering", async () => {
    const ids = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const res = await postV1(
          "/chat/completions",
          { model: "stop.up", messages: [{ role: "user", content: `n${i}` }] },
          { base: gateway!.url, key },
        );
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        return res.headers.get("x-request-id")!;
      }),
    );
    // Within the batch window (about a second): the rows are still in memory when SIGTERM arrives.
    await gateway!.stop();
    expect(gateway!.process.exitCode).toBe(0);

    const { client } = createDb(gateway!.databaseUrl);
    try {
      const rows = await client.usageRecord.findMany({ where: { requestId: { in: ids } } });
      expect(rows).toHaveLength(REQUESTS);
      expect(new Set(rows.map((r) => r.requestId))).toEqual(new Set(ids));
      for (const row of rows) {
        expect(row).toMatchObject({
          endpoint: "chat.completions",
          model: "stop.up",
          inputTokens: 11,
          outputTokens: 3,
          status: 200,
          stream: false,
          backend: "up-one",
        });
        expect(row.costUsd).toBeCloseTo((11 * 2 + 3 * 5) / 1_000_000, 12);
        expect(JSON.parse(row.attempts!)).toEqual([expect.objectContaining({ backend: "up-one", status: 200 })]);
        // Stored as Prisma stores DateTime, so date filters (usage report, budgets) find the row.
        expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(120_000);
      }
      const since = new Date(Date.now() - 60_000);
      expect(await client.usageRecord.count({ where: { requestId: { in: ids }, createdAt: { gte: since } } })).toBe(
        REQUESTS,
      );
    } finally {
      await client.$disconnect();
    }
  }, 120_000);
});
