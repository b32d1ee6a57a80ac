// @needs server quiet-machine chromium desktop
// A real install's defaults (docs/limits.md "Sign-up" and "Quotas"): no SIGNUP and no
// ORG_MAX_* set. The first account signs up and owns the install; after it a stranger
// is refused (invitations only); each organization's quotas are well under half the
// host, so two free organizations cannot take every desktop from a third.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Target } from "../api/computers-fixtures";
import { canRunDesktops, createDesktop, desktopImagesDir } from "../api/desktop-fixtures";
import { createOrgKey, startServer, type TestServer } from "../api/harness";

const DESKTOP_SLOTS = 4;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    env: {
      // Unset what the harness sets for the other suites: these are the defaults under test.
      SIGNUP: undefined,
      ORG_MAX_BROWSER_SESSIONS: undefined,
      ORG_MAX_DESKTOP_SESSIONS: undefined,
      DESKTOP_MAX_SESSIONS: String(DESKTOP_SLOTS),
      ...(canRunDesktops ? { DESKTOP_IMAGES_DIR: desktopImagesDir() } : {}),
    },
  });
}, 300_000);
afterAll(async () => {
  await server?.destroy();
});

const signUp = (email: string) =>
  fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password: "correct horse battery", name: email.split("@")[0] }),
  });

describe("sign-up by default", () => {
  it("a fresh install opens on Sign up; the first account gets in, a stranger after it is refused", async () => {
    const login = await fetch(`${server.url}/login`, { redirect: "manual" });
    expect(login.status).toBeGreaterThanOrEqual(300);
    expect(login.status).toBeLessThan(400);
    expect(new URL(login.headers.get("location")!, server.url).pathname).toBe("/sign-up");

    const first = await signUp("owner@example.test");
    expect(first.status).toBe(200);
    const cookie = first.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");

    const stranger = await signUp("stranger@example.test");
    expect(stranger.status).toBe(403);
    expect((await stranger.json()).message).toContain("invitation only");
    expect((await fetch(`${server.url}/login`, { redirect: "manual" })).status).toBe(200);

    // The owner's organization sees the default quotas: well under half of the host.
    const org = await fetch(`${server.url}/api/organization`, { headers: { cookie, origin: server.url } });
    const quotas = (await org.json()).quotas;
    expect(quotas.desktop_sessions.limit).toBe(DESKTOP_SLOTS / 4);
    expect(quotas.browser_sessions.limit).toBe(16);
  });
});

describe.runIf(canRunDesktops)("desktop quotas by default", () => {
  it("two organizations at their quota leave desktops for a third", async () => {
    const orgs: Target[] = [];
    for (const name of ["Quota A", "Quota B", "Quota C"])
      orgs.push({ base: server.url, key: await createOrgKey(server, name) });
    const made: [Target, string][] = [];
    try {
      for (const org of orgs.slice(0, 2)) {
        made.push([org, (await createDesktop(org)).id]);
        const second = await api("POST", "/computers", { kind: "desktop" }, org);
        expect(second.status).toBe(429);
        expect(second.body.error.message).toContain("ORG_MAX_DESKTOP_SESSIONS");
      }
      made.push([orgs[2], (await createDesktop(orgs[2])).id]);
    } finally {
      for (const [org, id] of made) await api("DELETE", `/computers/${id}`, undefined, org);
    }
  });
});
