// @needs server chromium
// docs/security.md "Sessions apart": sessions of different organizations never share a Chromium process. The pool's
// spare browser goes to the first organization that creates a session (a new spare starts behind it),
// so the browser each organization got is known from the order of launches; killing one organization's
// Chromium ends only that organization's sessions. An organization's browser closes
// BROWSER_ORG_IDLE_SECONDS after its last session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import {
  api,
  chromiumPidsOf,
  createSession,
  execute,
  poolStats,
  startSite,
  waitFor,
  type Site,
  type Target,
} from "./computers-fixtures";

let site: Site;
let server: TestServer;

beforeAll(async () => {
  site = await startSite();
  server = await startServer({ env: { BROWSER_ORG_IDLE_SECONDS: "3" } });
});
afterAll(async () => {
  await server?.destroy();
  await site?.close();
});

/** The Chromium main processes once exactly `n` run (a spare is launched in the background after each claim). */
const pidsWhen = (n: number) =>
  waitFor(
    `${n} Chromium processes`,
    async () => chromiumPidsOf(server.dataDir),
    (p) => p.length === n,
    20_000,
  );

describe("one Chromium per organization", () => {
  // Also: idle browsers close.
  it("each organization's sessions run in a browser of its own; a crash of one ends only its sessions", async () => {
    const a: Target = { base: server.url, key: await createOrgKey(server, "Browser Org A") };
    const b: Target = { base: server.url, key: await createOrgKey(server, "Browser Org B") };
    const [spare] = await pidsWhen(1);

    const a1 = await createSession({}, a);
    const afterA = await pidsWhen(2);
    const browserOfA = spare;
    const spareAfterA = afterA.find((pid) => pid !== browserOfA)!;

    // Org A's second session (and one with its own options, which cannot use standby) share A's browser.
    const a2 = await createSession({}, a);
    const a3 = await createSession({ display: { width: 800, height: 600, scale: 2 } }, a);
    expect(await pidsWhen(2)).toEqual(afterA);

    const b1 = await createSession({}, b);
    const afterB = await pidsWhen(3);
    expect(afterB).toEqual(expect.arrayContaining([browserOfA, spareAfterA]));
    // The new spare's process runs a little before the pool counts it (its launch resolves).
    const stats = await waitFor(
      "three browsers in the pool",
      () => poolStats(server.url),
      (p) => p.browsers === 3,
    );
    expect(stats.organization_browsers).toBe(2);

    for (const s of [a1, b1])
      await execute(s.id, { type: "go_to_url", url: `${site.url}/page?n=${s.id}` }, s === a1 ? a : b);
    process.kill(browserOfA, "SIGKILL");
    for (const s of [a1, a2, a3]) {
      const ended = await waitFor(
        `${s.id} crashed`,
        async () => (await api("GET", `/computers/${s.id}`, undefined, a)).body,
        (row) => row.status === "terminated",
        15_000,
      );
      expect(ended.termination_reason).toBe("crashed");
    }
    // Org B's session, in the spare it claimed, did not notice.
    expect((await api("GET", `/computers/${b1.id}`, undefined, b)).body.status).not.toBe("terminated");
    const shot = await execute(b1.id, { type: "screenshot" }, b);
    expect(shot.status).toBe("success");

    // B's browser closes BROWSER_ORG_IDLE_SECONDS after its last session; the spare stays, standby and all.
    expect((await api("DELETE", `/computers/${b1.id}`, undefined, b)).status).toBe(204);
    const idle = await waitFor(
      "organizations' browsers closed",
      () => poolStats(server.url),
      (p) => p.organization_browsers === 0 && p.browsers === 1,
      30_000,
      250,
    );
    expect(idle.session_contexts).toBe(0);
    const [left] = await pidsWhen(1);
    expect([browserOfA, spareAfterA]).not.toContain(left);

    // A's next session gets a browser again (the spare) and works.
    const again = await createSession({}, a);
    expect((await execute(again.id, { type: "go_to_url", url: `${site.url}/page?n=again` }, a)).status).toBe("success");
    expect(await pidsWhen(2)).toContain(left);
  });
});
