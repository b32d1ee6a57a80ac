// @needs server light postgres
// Rate limits shared across processes on PostgreSQL: TWO servers on one
// database (organization limit 4/min, per key 2/min) with requests split
// between them are refused at the shared limit, not at twice it, and each
// server's x-ratelimit-* headers count the other's requests. SQLite limits per
// process, so this suite runs only against PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startServer, type TestServer } from "./harness";
import { closeDbs, MODEL, postV1 } from "./models-helpers";

const onPostgres = Boolean(process.env.CABIN_TEST_DATABASE_URL);
const LIMITS = { MODEL_RATE_LIMIT_RPM: "4", MODEL_KEY_RATE_LIMIT_RPM: "2", MODEL_RATE_LIMIT_TPM: "0" };

let first: TestServer;
let second: TestServer;
const keys: string[] = [];

describe.skipIf(!onPostgres)("shared rate limits (PostgreSQL only: on SQLite each process limits on its own)", () => {
  beforeAll(async () => {
    first = await startServer({ env: LIMITS });
    second = await startServer({ env: LIMITS, databaseUrl: first.databaseUrl });
    const org = JSON.parse(await runCli(first, ["org", "create", "Shared Limits Org", "--json"])) as { slug: string };
    for (let i = 0; i < 3; i++)
      keys.push(JSON.parse(await runCli(first, ["keys", "create", "--org", org.slug, "--json"])).key);
  }, 180_000);

  afterAll(async () => {
    await closeDbs();
    // The second server shares the first's database: stop it before the first drops it.
    await second?.stop();
    await first?.destroy();
    await second?.destroy();
  });

  const embed = (server: TestServer, key: string) =>
    postV1("/embeddings", { model: MODEL, input: "a" }, { base: server.url, key });

  it("refuses at the shared per-key and per-organization limits across both servers", async () => {
    const [one, two, three] = keys as [string, string, string];
    const remaining: (string | null)[] = [];
    // The key's 2 requests, one on each server; the third and fourth are over the key's limit wherever they land.
    for (const [server, key] of [
      [first, one],
      [second, one],
    ] as const) {
      const ok = await embed(server, key);
      expect(ok.status).toBe(200);
      remaining.push(ok.headers.get("x-ratelimit-remaining-requests"));
    }
    for (const server of [first, second]) {
      const refused = await embed(server, one);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await refused.json()).error).toMatchObject({
        code: "rate_limit_exceeded",
        message: expect.stringMatching(/this API key: 2 requests per minute/),
      });
    }
    // The organization's other 2 requests, again split; then its limit holds on both servers.
    for (const server of [second, first]) {
      const ok = await embed(server, two);
      expect(ok.status).toBe(200);
      remaining.push(ok.headers.get("x-ratelimit-remaining-requests"));
    }
    for (const server of [first, second]) {
      const refused = await embed(server, three);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("x-ratelimit-limit-requests")).toBe("4");
      expect(refused.headers.get("x-ratelimit-remaining-requests")).toBe("0");
      expect((await refused.json()).error.message).toMatch(/this organization: 4 requests per minute/);
    }
    // Each answer counted the other server's requests too: 4 shared, not 4 each.
    expect(remaining).toEqual(["3", "2", "1", "0"]);
  });
});
