// @needs server postgres
// Limits shared across nodes (docs/scale-out.md "What the nodes share"): THREE
// servers on one PostgreSQL database, a client spreading its requests over all
// three. Login attempts meet the same refusals as on one server (Better Auth's
// per-address limit and the per-account backoff), a monthly budget spent through
// all three overshoots by at most one request per server in flight, and a key
// revoked through one server is refused by the others on their next request.
// SQLite is one node (each process counts on its own), so this runs only on PostgreSQL.
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startServer, type TestServer } from "./harness";
import { closeDbs, db, MODEL, postV1 } from "./models-helpers";
import { waitFor } from "./wait-for";

const onPostgres = Boolean(process.env.CABIN_TEST_DATABASE_URL);
const AUTH_LIMIT = 6;
const FREE_FAILURES = 3;
const SETTINGS = {
  CABIN_SECRET: randomBytes(24).toString("hex"),
  AUTH_RATE_LIMIT_PER_MINUTE: String(AUTH_LIMIT),
  LOGIN_BACKOFF_FREE_FAILURES: String(FREE_FAILURES),
  LOGIN_BACKOFF_BASE_SECONDS: "60",
};

let nodes: TestServer[] = [];
let owner: { cookie: string; base: string };

/** A node on a port chosen first, so it can be told its own address. */
async function startNode(name: string, databaseUrl?: string): Promise<TestServer> {
  const port = await freePort();
  return startServer({ port, databaseUrl, env: { ...SETTINGS, HOST_ID: name, NODE_URL: `http://127.0.0.1:${port}` } });
}

/** A sign-in from one loopback source address (the client's address as the server sees it). */
function signIn(
  node: TestServer,
  from: string,
  email: string,
  password: string,
): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: node.port,
        method: "POST",
        path: "/api/auth/sign-in/email",
        localAddress: from,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), origin: node.url },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: text.startsWith("{") ? JSON.parse(text) : text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function dashboard(method: string, path: string, body?: unknown) {
  const res = await fetch(`${owner.base}${path}`, {
    method,
    headers: { cookie: owner.cookie, origin: owner.base, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function newKey(name: string): Promise<{ id: string; key: string }> {
  const created = await dashboard("POST", "/api/keys", { name });
  expect(created.status).toBe(201);
  return created.body;
}

const embed = (node: TestServer, key: string) =>
  postV1("/embeddings", { model: MODEL, input: "a" }, { base: node.url, key });

describe.skipIf(!onPostgres)("limits shared by three nodes on one PostgreSQL", () => {
  beforeAll(async () => {
    const first = await startNode("node-a");
    nodes = [
      first,
      ...(await Promise.all([startNode("node-b", first.databaseUrl), startNode("node-c", first.databaseUrl)])),
    ];
    const res = await fetch(`${first.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: first.url },
      body: JSON.stringify({ email: "owner@example.test", password: "the-right-password", name: "Owner" }),
    });
    if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
    owner = {
      cookie: res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
      base: first.url,
    };
  }, 240_000);

  afterAll(async () => {
    await closeDbs();
    // The others share the first's database: stop them before the first drops it.
    await Promise.all(nodes.slice(1).map((n) => n.stop()));
    await nodes[0]?.destroy();
    await Promise.all(nodes.slice(1).map((n) => n.destroy()));
  });

  // Also: not three times it.
  it("the per-address login limit counts attempts on every node: refused at the limit", async () => {
    // Each attempt names another account, so the per-account backoff never fires: every 429 is the address limit.
    const answers: number[] = [];
    for (let i = 0; i < AUTH_LIMIT + 3; i++)
      answers.push((await signIn(nodes[i % 3]!, "127.0.0.4", `nobody${i}@example.test`, "wrong")).status);
    expect(answers).toEqual([...Array(AUTH_LIMIT).fill(401), 429, 429, 429]);
    // Another address is not affected.
    expect((await signIn(nodes[2]!, "127.0.0.5", "nobody@example.test", "wrong")).status).toBe(401);
  });

  it("the per-account backoff counts failures on every node, and even the right password waits", async () => {
    for (let i = 0; i < FREE_FAILURES; i++)
      expect((await signIn(nodes[i % 3]!, "127.0.0.6", "owner@example.test", "wrong")).status).toBe(401);
    for (const node of nodes) {
      const refused = await signIn(node, "127.0.0.6", "owner@example.test", "the-right-password");
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/Too many failed sign-ins for this account from your address/);
    }
    // The owner from another address signs in at once, on any node.
    expect((await signIn(nodes[1]!, "127.0.0.7", "owner@example.test", "the-right-password")).status).toBe(200);
  });

  it("a budget spent through three nodes at once overshoots by at most one request per node", async () => {
    // One request's cost, measured with a key that has no budget.
    const probe = await embed(nodes[0]!, (await newKey("probe")).key);
    const cost = Number(probe.headers.get("x-cabin-cost-usd"));
    expect(cost).toBeGreaterThan(0);
    // Set before any node has seen the key, so all three know the budget from its first request.
    const limited = await newKey("limited");
    const budget = 14.5 * cost;
    expect((await dashboard("PATCH", `/api/keys/${limited.id}`, { monthly_budget_usd: budget })).status).toBe(200);

    // One client per node, each sending its next request when the last is answered, until refused.
    const perNode = await Promise.all(
      nodes.map(async (node) => {
        let answered = 0;
        for (;;) {
          const res = await embed(node, limited.key);
          if (res.status === 429) {
            expect((await res.json()).error).toMatchObject({ code: "insufficient_quota" });
            return answered;
          }
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          answered++;
        }
      }),
    );
    const answered = perNode.reduce((a, b) => a + b, 0);
    const spent = await waitFor(
      async () =>
        await db(nodes[0]!.databaseUrl).usageRecord.aggregate({
          where: { apiKeyId: limited.id },
          _sum: { costUsd: true },
          _count: true,
        }),
      { until: (s) => s._count === answered, timeoutMs: 10_000, message: "every answered request's usage row" },
    );
    const overshoot = (spent._sum.costUsd ?? 0) - budget;
    console.log(
      `budget $${budget.toExponential(3)} (14.5 requests): ${answered} answered over 3 nodes ` +
        `(${perNode.join("/")}), overshoot ${(overshoot / cost).toFixed(1)} requests ` +
        `(${((overshoot / budget) * 100).toFixed(1)} %)`,
    );
    // 15 requests reach the budget; at most one more per node was in flight when it ran out.
    expect(answered).toBeGreaterThanOrEqual(15);
    expect(answered).toBeLessThanOrEqual(15 + nodes.length);
  });

  it("a key revoked through one node is refused by the others on their next request", async () => {
    const key = await newKey("revoked");
    // Every node has the key cached.
    for (const node of nodes) expect((await embed(node, key.key)).status).toBe(200);
    expect((await dashboard("DELETE", `/api/keys/${key.id}`)).status).toBe(200);
    for (const node of [nodes[1]!, nodes[2]!, nodes[0]!]) {
      const refused = await embed(node, key.key);
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.code).toBe("invalid_api_key");
    }
  });
});
