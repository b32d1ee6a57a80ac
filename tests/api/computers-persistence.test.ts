// @needs server postgres chromium
// persistent: true saves cookies, localStorage and IndexedDB when the session
// ends (DELETE, inactivity, lifetime); environment_id restores them; without
// persistent the restored session does not save its changes.
import { describe, expect, inject, it } from "vitest";
import { api, readBrowserState, setBrowserState, useSessionSuite, waitFor } from "./computers-fixtures";

const suite = useSessionSuite();
const session = suite.session;

async function waitTerminated(id: string) {
  return waitFor(
    `${id} terminated`,
    async () => (await api("GET", `/computers/${id}`)).body,
    (b) => b.status === "terminated",
    15_000,
  );
}

describe("persistence", () => {
  it("a fresh session has no state", async () => {
    const s = await session({});
    expect(await readBrowserState(s.id, suite.site)).toBe("none|none|none");
  });

  it.each([
    ["DELETE", { persistent: true }, async (id: string) => api("DELETE", `/computers/${id}`), "deleted"],
    ["inactivity", { persistent: true, inactivity_timeout_seconds: 2 }, async () => {}, "inactivity"],
    [
      "lifetime",
      { persistent: true, timeout_seconds: 6, inactivity_timeout_seconds: 60 },
      async () => {},
      "max_lifetime",
    ],
  ] as const)("saves at the end by %s and restores into a new session", async (_how, body, end, reason) => {
    const value = `v${Date.now()}`;
    const s = await session(body);
    await setBrowserState(s.id, suite.site, value);
    await end(s.id);
    const ended = await waitTerminated(s.id);
    expect(ended.termination_reason).toBe(reason);

    const listed = await api("GET", "/computers?type=persistent");
    expect(listed.body.some((c: any) => c.id === s.id)).toBe(true);

    const restored = await session({ environment_id: s.id });
    expect(restored.environment_id).toBe(s.id);
    expect(await readBrowserState(restored.id, suite.site)).toBe(`${value}|${value}|${value}`);
  });

  // Also: the new session saves under its own id.
  it("without persistent, a restored session does not save its changes; with it", async () => {
    const original = await session({ persistent: true });
    await setBrowserState(original.id, suite.site, "first");
    await api("DELETE", `/computers/${original.id}`);

    const scratch = await session({ environment_id: original.id });
    expect(await readBrowserState(scratch.id, suite.site)).toBe("first|first|first");
    await setBrowserState(scratch.id, suite.site, "changed");
    await api("DELETE", `/computers/${scratch.id}`);
    // Not saved: neither under the original nor as an environment of its own.
    const again = await session({ environment_id: original.id });
    expect(await readBrowserState(again.id, suite.site)).toBe("first|first|first");
    expect((await api("POST", "/computers", { environment_id: scratch.id })).status).toBe(400);

    const forked = await session({ environment_id: original.id, persistent: true });
    await setBrowserState(forked.id, suite.site, "forked");
    await api("DELETE", `/computers/${forked.id}`);
    const fromFork = await session({ environment_id: forked.id });
    expect(await readBrowserState(fromFork.id, suite.site)).toBe("forked|forked|forked");
    const fromOriginal = await session({ environment_id: original.id });
    expect(await readBrowserState(fromOriginal.id, suite.site)).toBe("first|first|first");
  });

  it("another organization cannot use the saved state", async () => {
    const s = await session({ persistent: true });
    await api("DELETE", `/computers/${s.id}`);
    const res = await api("POST", "/computers", { environment_id: s.id }, { key: inject("apiKeyB") });
    expect(res.status).toBe(404);
    expect(res.body.error.param).toBe("environment_id");
  });
});
