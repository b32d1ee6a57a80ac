// @needs server light postgres
// Usage rows are never silently lost: /api/health counts rows held, retried and
// dropped. On a server of its own, the usage table is renamed away under it so
// its writes really fail, then renamed back (SQLite and PostgreSQL alike).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { closeDbs, db, MODEL, postV1, usageRow } from "./models-helpers";

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer();
  key = await createOrgKey(server, "Usage Health Org");
});

afterAll(async () => {
  await closeDbs();
  await server?.destroy();
});

async function usageCounters(): Promise<{ pending: number; retrying: number; dropped: number }> {
  const res = await fetch(`${server.url}/api/health`);
  return (await res.json()).checks.models.usage;
}

async function embed(): Promise<string> {
  const res = await postV1("/embeddings", { model: MODEL, input: "tide" }, { base: server.url, key });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get("x-request-id")!;
}

const renameUsageTable = (from: string, to: string) =>
  db(server.databaseUrl).$executeRawUnsafe(`ALTER TABLE "${from}" RENAME TO "${to}"`);

describe("usage rows in /api/health", () => {
  it("shows nothing held and nothing dropped normally", async () => {
    await usageRow(await embed(), server.databaseUrl);
    await expect.poll(usageCounters).toEqual({ pending: 0, retrying: 0, dropped: 0 });
  });

  it("keeps a batch whose write fails, retries it, and writes it once the table is back", async () => {
    await renameUsageTable("usage_records", "usage_records_away");
    let requestId: string;
    try {
      requestId = await embed();
      await expect.poll(usageCounters, { timeout: 3_000 }).toMatchObject({ retrying: 1, dropped: 0 });
    } finally {
      await renameUsageTable("usage_records_away", "usage_records");
    }
    const row = await usageRow(requestId!, server.databaseUrl);
    expect(row.endpoint).toBe("embeddings");
    await expect.poll(usageCounters, { timeout: 5_000 }).toEqual({ pending: 0, retrying: 0, dropped: 0 });
    expect(await db(server.databaseUrl).usageRecord.count({ where: { requestId: requestId! } })).toBe(1);
  });

  it("counts the rows it gives up after every attempt failed", async () => {
    await renameUsageTable("usage_records", "usage_records_away");
    try {
      await embed();
      // Five attempts over about 4 s of backoff, then the row is dropped and counted.
      await expect
        .poll(usageCounters, { timeout: 15_000, interval: 200 })
        .toEqual({ pending: 0, retrying: 0, dropped: 1 });
    } finally {
      await renameUsageTable("usage_records_away", "usage_records");
    }
    // Writes work again afterwards; the count of drops stays.
    await usageRow(await embed(), server.databaseUrl);
    await expect.poll(usageCounters).toEqual({ pending: 0, retrying: 0, dropped: 1 });
  });
});
