// @needs server light postgres
// Billed usage survives a crash (docs/models.md "Usage"): every answered completion's row is in the
// usage journal before the answer is sent, so a server killed with SIGKILL right after answering
// (inside the batch window, before any batch write) still has every row once it is restarted on the
// same data, each counted once in the month's total. Also run on PostgreSQL (POSTGRES_FILES:
// "models-usage").
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { postV1, scriptedUpstream } from "./models-helpers";
import { waitFor } from "./wait-for";

const REQUESTS = 30;
const PRICES = { input: 2, output: 5 };
let upstream: LoopbackServer;
let gateway: TestServer;
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
    "crash.up": { backends: [{ backend: "openai-compatible", name: "up", url: `${upstream.url}/v1` }], prices: PRICES },
  };
  gateway = await startServer({ env: { MODELS: JSON.stringify(models) } });
  key = await createOrgKey(gateway, "Crash Usage Org");
}, 240_000);

afterAll(async () => {
  await gateway?.destroy();
  await upstream?.close();
});

describe("usage rows after a crash", () => {
  it("has every answered completion's row after SIGKILL and a restart on the same data, counted once", async () => {
    const ids = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const res = await postV1(
          "/chat/completions",
          { model: "crash.up", messages: [{ role: "user", content: `n${i}` }] },
          { base: gateway.url, key },
        );
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        return res.headers.get("x-request-id")!;
      }),
    );
    // At once: the batch writer waits about a second before its first write.
    await gateway.kill("SIGKILL");
    // On PostgreSQL the server is a cluster node: until a node can take over its own killed incarnation
    // at once (docs/cluster.md), its start is refused while the dead one's lease runs.
    const killed = gateway;
    gateway = await waitFor(() => killed.restart().catch(() => null), {
      until: (started) => started !== null,
      timeoutMs: 90_000,
      intervalMs: 1_000,
      message: "the restart on the same data",
    }).then((started) => started!);

    const { client } = createDb(gateway.databaseUrl);
    try {
      const rows = await waitFor(() => client.usageRecord.findMany({ where: { requestId: { in: ids } } }), {
        until: (found) => found.length >= REQUESTS,
        message: "every answered completion's usage row",
      });
      expect(rows).toHaveLength(REQUESTS);
      expect(new Set(rows.map((r) => r.requestId))).toEqual(new Set(ids));
      for (const row of rows) expect(row).toMatchObject({ model: "crash.up", inputTokens: 11, outputTokens: 3 });
      const expected = (REQUESTS * (11 * PRICES.input + 3 * PRICES.output)) / 1_000_000;
      const org = rows[0]!.organizationId;
      const total = await client.usageMonthTotal.findMany({ where: { scope: "organization", subjectId: org } });
      expect(total.reduce((sum, t) => sum + t.costUsd, 0)).toBeCloseTo(expected, 9);
    } finally {
      await client.$disconnect();
    }
    // The restarted server serves and bills as before.
    const after = await postV1(
      "/chat/completions",
      { model: "crash.up", messages: [{ role: "user", content: "after" }] },
      { base: gateway.url, key },
    );
    expect(after.status).toBe(200);
  }, 180_000);
});
