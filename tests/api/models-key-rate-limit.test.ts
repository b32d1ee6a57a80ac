// @needs server light postgres
// Per-key rate limits on a server of its own (MODEL_KEY_RATE_LIMIT_RPM=2,
// organization limit 5): a key over its own limit is refused while another key
// of the same organization still works, and the organization's limit still
// holds for all its keys together.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startServer, type TestServer } from "./harness";
import { closeDbs, MODEL, postV1 } from "./models-helpers";

let server: TestServer;
const keys: string[] = [];

beforeAll(async () => {
  server = await startServer({ env: { MODEL_KEY_RATE_LIMIT_RPM: "2", MODEL_RATE_LIMIT_RPM: "5" } });
  const org = JSON.parse(await runCli(server, ["org", "create", "Key Limits Org", "--json"])) as { slug: string };
  for (let i = 0; i < 3; i++)
    keys.push(JSON.parse(await runCli(server, ["keys", "create", "--org", org.slug, "--json"])).key);
}, 120_000);

afterAll(async () => {
  await closeDbs();
  await server?.destroy();
});

const embed = (key: string) => postV1("/embeddings", { model: MODEL, input: "a" }, { base: server.url, key });

describe("per-key rate limits", () => {
  // Also: the organization's limit covers all keys.
  it("refuses one key over its own limit while another key of the same organization works", async () => {
    const [first, second, third] = keys as [string, string, string];
    expect((await embed(first)).status).toBe(200);
    expect((await embed(first)).status).toBe(200);
    const refused = await embed(first);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("x-ratelimit-limit-requests")).toBe("2");
    const body = await refused.json();
    expect(body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limit_exceeded" });
    expect(body.error.message).toMatch(/this API key: 2 requests per minute/);

    // The refused request took nothing from the organization: 2 of its 5 are spent.
    expect((await embed(second)).status).toBe(200);
    expect((await embed(second)).status).toBe(200);
    expect((await embed(third)).status).toBe(200);
    const orgRefused = await embed(third);
    expect(orgRefused.status).toBe(429);
    expect((await orgRefused.json()).error.message).toMatch(/this organization: 5 requests per minute/);
  });
});
