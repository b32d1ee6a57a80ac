// @needs server light postgres chromium desktop
// Per-organization quotas (docs/security.md "Quotas"). One organization cannot take every
// slot: past its concurrent-session quota or its creation rate, creating answers 429
// in the /computers envelope with a retry-after, while other organizations still
// create. The check and the registration are one step (two creates at quota − 1:
// exactly one wins, nothing half-made), and the operator's override (CLI) applies at once.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api, type Target } from "./computers-fixtures";
import { canRunDesktops, desktopImagesDir } from "./desktop-fixtures";
import { runCli, startServer, type TestServer } from "./harness";

// Each operator CLI run is a tsx process (seconds on a loaded machine); a test makes several.
vi.setConfig({ testTimeout: 240_000 });

const BROWSER_QUOTA = 2;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    env: {
      ORG_MAX_BROWSER_SESSIONS: String(BROWSER_QUOTA),
      ORG_MAX_DESKTOP_SESSIONS: "1",
      ORG_SESSION_CREATES_PER_MINUTE: "0",
      ...(canRunDesktops ? { DESKTOP_IMAGES_DIR: desktopImagesDir() } : {}),
    },
  });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await server?.destroy();
});

/** A new organization and a key for it; the slug is what the operator's CLI names it by. */
async function newOrg(name: string): Promise<Target & { slug: string }> {
  const org = JSON.parse(await runCli(server, ["org", "create", name, "--json"])) as { slug: string };
  const key = JSON.parse(await runCli(server, ["keys", "create", "--org", org.slug, "--json"])) as { key: string };
  return { base: server.url, key: key.key, slug: org.slug };
}

const create = (t: Target, body: Record<string, unknown> = {}) => api("POST", "/computers", body, t);

async function created(t: Target, body: Record<string, unknown> = {}): Promise<string> {
  const res = await create(t, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

function expectQuota429(res: Awaited<ReturnType<typeof create>>, words: (string | number)[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body.error.code).toBe("rate_limited");
  for (const word of words) expect(res.body.error.message).toContain(String(word));
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
}

async function liveIds(t: Target): Promise<string[]> {
  const res = await api("GET", "/computers?type=live", undefined, t);
  return (res.body as { id: string }[]).map((s) => s.id);
}

describe("concurrent browser sessions per organization", () => {
  // Also: ending one frees a slot.
  it("refuses the N+1th with 429 + retry-after naming the quota; another organization still creates", async () => {
    const [a, b] = await Promise.all([newOrg("Quota A"), newOrg("Quota B")]);
    const ids = [await created(a), await created(a)];
    expectQuota429(await create(a), ["ORG_MAX_BROWSER_SESSIONS", BROWSER_QUOTA, "browser"]);
    expect((await liveIds(a)).sort()).toEqual([...ids].sort());

    const other = await created(b);
    expect(await liveIds(b)).toEqual([other]);

    expect((await api("DELETE", `/computers/${ids[0]}`, undefined, a)).status).toBe(204);
    const again = await created(a);
    expect((await liveIds(a)).sort()).toEqual([ids[1], again].sort());
  });

  it("two concurrent creates at quota − 1: exactly one wins and nothing half-made is left", async () => {
    const c = await newOrg("Quota C");
    const first = await created(c);
    const answers = await Promise.all([create(c), create(c)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 429]);
    const winner = answers.find((r) => r.status === 200)!.body.id as string;
    expect((await liveIds(c)).sort()).toEqual([first, winner].sort());
    // Every row the organization has is one of the two: the refused create wrote nothing.
    const all = (await api("GET", "/computers", undefined, c)).body as { id: string }[];
    expect(all.map((s) => s.id).sort()).toEqual([first, winner].sort());
  });

  it("the operator's override (CLI org quota) takes effect at once, and 'default' returns to the setting", async () => {
    const d = await newOrg("Quota D");
    await created(d);
    await created(d);
    expectQuota429(await create(d), [BROWSER_QUOTA]);
    const out = await runCli(server, ["org", "quota", d.slug, "--browser", "3", "--json"]);
    expect(JSON.parse(out).browser_sessions).toMatchObject({ limit: 3, overridden: true });
    await created(d);
    expectQuota429(await create(d), ["ORG_MAX_BROWSER_SESSIONS", 3]);
    await runCli(server, ["org", "quota", d.slug, "--browser", "default"]);
    expectQuota429(await create(d), [BROWSER_QUOTA]);
  });

  it("the CLI refuses a bad value", async () => {
    await expect(runCli(server, ["org", "quota", "quota-a", "--browser", "0"])).rejects.toThrow(
      /--browser must be an integer/,
    );
  });
});

describe("creation rate per organization", () => {
  it("past ORG_SESSION_CREATES_PER_MINUTE (set by the operator) creating answers 429 with retry-after", async () => {
    const e = await newOrg("Quota E");
    const f = await newOrg("Quota F");
    await runCli(server, ["org", "quota", e.slug, "--creates-per-minute", "2"]);
    for (let i = 0; i < 2; i++) {
      const id = await created(e);
      expect((await api("DELETE", `/computers/${id}`, undefined, e)).status).toBe(204);
    }
    const refused = await create(e);
    expectQuota429(refused, ["ORG_SESSION_CREATES_PER_MINUTE", 2, "per minute"]);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await liveIds(e)).toEqual([]);
    // The rate is per organization.
    await created(f);
  });
});

describe.skipIf(!canRunDesktops)("concurrent desktop sessions per organization", () => {
  // Also: another organization still gets one.
  it("refuses the second desktop of an organization whose quota is 1", async () => {
    const [g, h] = await Promise.all([newOrg("Quota G"), newOrg("Quota H")]);
    const desktop = await created(g, { kind: "desktop" });
    expectQuota429(await create(g, { kind: "desktop" }), ["ORG_MAX_DESKTOP_SESSIONS", 1, "desktop"]);
    // Browser sessions are counted apart.
    await created(g);
    const theirs = await created(h, { kind: "desktop" });
    for (const [t, id] of [
      [g, desktop],
      [h, theirs],
    ] as const) {
      expect((await api("DELETE", `/computers/${id}`, undefined, t)).status).toBe(204);
    }
  }, 180_000);
});
