// @needs server light postgres
// Team governance of the model API: monthly budgets per key and per
// organization (429 insufficient_quota on every inference endpoint once spent),
// the remaining-budget and cost headers, and setting budgets over the dashboard API.
import { afterAll, describe, expect, inject, it } from "vitest";
import { runCli } from "./harness";
import { closeDbs, db, MODEL, postV1, readSse } from "./models-helpers";
import { signUp, type DashboardUser } from "./session-client";

afterAll(closeDbs);

// Any answered request of the placeholder model costs more than this.
const TINY = 1e-9;

const chat = (key: string) =>
  postV1(
    "/chat/completions",
    { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 3, temperature: 0 },
    { key },
  );
const complete = (key: string) =>
  postV1("/completions", { model: MODEL, prompt: "hi", max_tokens: 3, temperature: 0 }, { key });
const embed = (key: string) => postV1("/embeddings", { model: MODEL, input: "hi" }, { key });
const respond = (key: string) =>
  postV1("/responses", { model: MODEL, input: "hi", max_output_tokens: 3, temperature: 0 }, { key });

async function newKey(user: DashboardUser, name: string) {
  const created = await user.request("POST", "/api/keys", { name });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, key: created.body.key as string };
}

async function expectQuotaRefusal(res: Response, what: RegExp) {
  expect(res.status).toBe(429);
  expect(res.headers.get("x-should-retry")).toBe("false");
  expect(res.headers.get("x-cabin-budget-remaining-usd")).toBe("0");
  expect(res.headers.get("x-request-id")).toBeTruthy();
  const body = await res.json();
  expect(body.error).toMatchObject({ type: "insufficient_quota", code: "insufficient_quota" });
  expect(body.error.message).toMatch(what);
}

describe("monthly budgets", () => {
  // Also: another key of the team still works.
  it("a key past its budget gets 429 insufficient_quota on chat, completions, embeddings and responses", async () => {
    const alice = await signUp("Budget Alice");
    const limited = await newKey(alice, "limited");
    const other = await newKey(alice, "other");
    const set = await alice.request("PATCH", `/api/keys/${limited.id}`, { monthly_budget_usd: TINY });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ id: limited.id, monthly_budget_usd: TINY });

    const spend = await chat(limited.key);
    expect(spend.status).toBe(200);
    expect(Number(spend.headers.get("x-cabin-cost-usd"))).toBeGreaterThan(TINY);
    expect(spend.headers.get("x-cabin-budget-remaining-usd")).toBe("0");

    await expectQuotaRefusal(await chat(limited.key), /API key's monthly budget/);
    await expectQuotaRefusal(await complete(limited.key), /API key's monthly budget/);
    await expectQuotaRefusal(await embed(limited.key), /API key's monthly budget/);
    await expectQuotaRefusal(await respond(limited.key), /API key's monthly budget/);

    const unaffected = await chat(other.key);
    expect(unaffected.status).toBe(200);
    expect(unaffected.headers.get("x-cabin-budget-remaining-usd")).toBeNull();

    // Removing the limit lets the key spend again.
    expect((await alice.request("PATCH", `/api/keys/${limited.id}`, { monthly_budget_usd: null })).status).toBe(200);
    expect((await embed(limited.key)).status).toBe(200);
  });

  it("an organization past its budget refuses all its keys, on every endpoint", async () => {
    const bob = await signUp("Budget Bob");
    const first = await newKey(bob, "first");
    const second = await newKey(bob, "second");
    expect((await bob.request("PUT", "/api/budgets", { monthly_budget_usd: TINY })).status).toBe(200);

    expect((await embed(first.key)).status).toBe(200);
    for (const key of [first.key, second.key]) {
      await expectQuotaRefusal(await chat(key), /organization's monthly budget/);
      await expectQuotaRefusal(await complete(key), /organization's monthly budget/);
      await expectQuotaRefusal(await embed(key), /organization's monthly budget/);
      await expectQuotaRefusal(await respond(key), /organization's monthly budget/);
    }
  });

  it("reports the remaining budget and each request's cost; GET /api/budgets shows budgets and spend", async () => {
    const carol = await signUp("Budget Carol");
    const key = await newKey(carol, "metered");
    expect((await carol.request("PATCH", `/api/keys/${key.id}`, { monthly_budget_usd: 2 })).status).toBe(200);
    expect((await carol.request("PUT", "/api/budgets", { monthly_budget_usd: 1 })).status).toBe(200);

    const res = await complete(key.key);
    expect(res.status).toBe(200);
    const cost = Number(res.headers.get("x-cabin-cost-usd"));
    const body = await res.json();
    expect(cost).toBeCloseTo((body.usage.prompt_tokens * 0.2 + body.usage.completion_tokens * 0.3) / 1e6, 12);
    // The tighter budget (the organization's $1) minus what was spent.
    expect(Number(res.headers.get("x-cabin-budget-remaining-usd"))).toBeCloseTo(1 - cost, 6);

    const emb = await embed(key.key);
    expect(Number(emb.headers.get("x-cabin-cost-usd"))).toBeGreaterThan(0);

    // A streamed answer's headers leave before its cost is known: no cost header (the usage row has it).
    const streamed = await postV1(
      "/chat/completions",
      { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 2, stream: true },
      { key: key.key },
    );
    expect(streamed.headers.get("x-cabin-cost-usd")).toBeNull();
    expect((await readSse(streamed)).at(-1)).toBe("[DONE]");

    // Once the three usage rows are written, the month's spend (usage_month_totals, what budgets
    // are checked against after a reload) is their sum: the rows and totals commit together.
    await expect.poll(() => db().usageRecord.count({ where: { apiKeyId: key.id } }), { timeout: 15_000 }).toBe(3);
    const rowsSpent =
      (await db().usageRecord.aggregate({ where: { apiKeyId: key.id }, _sum: { costUsd: true } }))._sum.costUsd ?? 0;
    expect(rowsSpent).toBeGreaterThan(cost);
    const budgets = await carol.request("GET", "/api/budgets");
    expect(budgets.status).toBe(200);
    expect(budgets.body.organization.monthly_budget_usd).toBe(1);
    expect(budgets.body.organization.spent_usd).toBeCloseTo(rowsSpent, 12);
    expect(budgets.body.keys).toEqual([expect.objectContaining({ id: key.id, monthly_budget_usd: 2 })]);
    expect(budgets.body.keys[0].spent_usd).toBeCloseTo(rowsSpent, 12);
  });

  it("refuses a negative or non-numeric budget with a 400 naming the field", async () => {
    const dave = await signUp("Budget Dave");
    const key = await newKey(dave, "k");
    for (const bad of [-1, "5"]) {
      const res = await dave.request("PATCH", `/api/keys/${key.id}`, { monthly_budget_usd: bad });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe("monthly_budget_usd");
    }
    expect((await dave.request("PATCH", "/api/keys/nope", { monthly_budget_usd: 1 })).status).toBe(404);
  });

  // Also: a change made by another process counts within the refresh interval.
  it("the operator CLI sets key and organization budgets", async () => {
    const server = { databaseUrl: inject("databaseUrl"), dataDir: inject("dataDir") };
    const org = JSON.parse(await runCli(server, ["org", "create", `Budget CLI ${Date.now()}`, "--json"])) as {
      id: string;
      slug: string;
    };
    const first = JSON.parse(await runCli(server, ["keys", "create", "--org", org.slug, "--json"])).key as string;
    const second = JSON.parse(await runCli(server, ["keys", "create", "--org", org.slug, "--json"])).key as string;
    const firstId = (
      await db().apiKey.findFirstOrThrow({ where: { organizationId: org.id, prefix: first.slice(0, 12) } })
    ).id;
    expect(await runCli(server, ["keys", "budget", firstId, String(TINY)])).toContain(`monthly budget $${TINY}`);

    expect((await chat(first)).status).toBe(200);
    await expectQuotaRefusal(await embed(first), /API key's monthly budget/);
    expect((await chat(second)).status).toBe(200);

    // The server has this organization cached by now; the CLI's change reaches it by the periodic reload.
    expect(await runCli(server, ["org", "budget", org.slug, String(TINY)])).toContain(`monthly budget $${TINY}`);
    await expect.poll(async () => (await embed(second)).status, { timeout: 15_000, interval: 500 }).toBe(429);
    await expect(runCli(server, ["org", "budget", org.slug, "lots"])).rejects.toThrow(/number of USD/);
  }, 60_000);
});
