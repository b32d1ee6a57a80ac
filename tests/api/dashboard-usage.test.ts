// @needs server light postgres chromium
// The Usage page's API (session time, peak concurrency, ranges, per-key
// breakdown, CSV) and the Settings page's (rename, slug conflicts, roles,
// leave, delete) through a real login, with real browser sessions.
import { afterAll, inject, describe, expect, it } from "vitest";
import { call } from "./client";
import { closeDbs, MODEL, monthTotalRows, postV1 } from "./models-helpers";
import { signUp, type DashboardUser } from "./session-client";
import { waitFor } from "./wait-for";

async function teamWithKey(name: string) {
  const user = await signUp(name);
  const created = await user.request("POST", "/api/keys", { name: `${name} key` });
  expect(created.status).toBe(201);
  return { user, key: created.body.key as string, keyId: created.body.id as string };
}

async function startBrowser(key: string): Promise<string> {
  const res = await call("POST", "/computers", { key, body: { kind: "browser" } });
  expect(res.status).toBe(200);
  return res.body.id;
}

const usage = (user: DashboardUser, query = "") => user.request("GET", `/api/usage${query}`);

/** A member of `owner`'s organization, through an invitation accepted with Better Auth's own endpoints. */
async function addMember(owner: DashboardUser, role: "member" | "admin") {
  const orgId = (await owner.request("GET", "/api/me")).body.organization.id as string;
  const invitee = await signUp("Invitee");
  const invite = await owner.request("POST", "/api/auth/organization/invite-member", {
    email: invitee.email,
    role,
    organizationId: orgId,
  });
  expect(invite.status).toBe(200);
  expect(
    (await invitee.request("POST", "/api/auth/organization/accept-invitation", { invitationId: invite.body.id }))
      .status,
  ).toBe(200);
  expect((await invitee.request("POST", "/api/auth/organization/set-active", { organizationId: orgId })).status).toBe(
    200,
  );
  expect((await invitee.request("GET", "/api/me")).body.role).toBe(role);
  return invitee;
}

afterAll(closeDbs);

describe("usage: sessions, ranges, keys, CSV", () => {
  // Also: per key and in the dashboard row.
  it("counts session minutes, live and peak concurrency of real sessions", async () => {
    const { user, key, keyId } = await teamWithKey("Sessions");
    const [a, b] = await Promise.all([startBrowser(key), startBrowser(key)]);
    const live = await waitFor(async () => (await usage(user)).body, {
      until: (r) => r.sessions.browser.live_now >= 2,
      timeoutMs: 10_000,
      message: "two live browser sessions in the report",
    });
    expect(live.sessions.browser.peak_concurrent).toBe(2);
    expect(live.sessions.desktop).toMatchObject({ minutes: 0, live_now: 0, peak_concurrent: 0 });

    // One from the dashboard: no key, so the "Dashboard" row.
    const fromDashboard = await user.request("POST", "/api/sessions", { kind: "browser" });
    expect(fromDashboard.status).toBe(201);
    await waitFor(async () => (await usage(user)).body.sessions.browser.minutes, {
      until: (m) => m >= 0.05,
      timeoutMs: 15_000,
      message: "a few seconds of session time",
    });
    for (const id of [a, b]) expect((await call("DELETE", `/computers/${id}`, { key })).status).toBe(204);
    expect((await user.request("DELETE", `/api/sessions/${fromDashboard.body.id}`)).status).toBe(204);

    const report = (await usage(user)).body;
    expect(report.sessions.browser).toMatchObject({ sessions: 3, live_now: 0 });
    expect(report.sessions.browser.peak_concurrent).toBeGreaterThanOrEqual(2);
    expect(report.sessions.browser.minutes).toBeGreaterThan(0);
    const today = report.buckets.at(-1);
    expect(today.browser_minutes).toBeCloseTo(report.sessions.browser.minutes, 1);
    const byKey = new Map(report.by_key.map((k: any) => [k.key_id, k]));
    expect(byKey.get(keyId)).toMatchObject({ name: "Sessions key", prefix: key.slice(0, 12), requests: 0 });
    expect((byKey.get(keyId) as any).session_minutes).toBeGreaterThan(0);
    expect(byKey.get(null)).toMatchObject({ name: "Dashboard", prefix: null });
    expect((byKey.get(null) as any).session_minutes).toBeGreaterThan(0);

    // Ended sessions keep their minutes; nothing grows after the end.
    const later = (await usage(user)).body;
    expect(later.sessions.browser.minutes).toBe(report.sessions.browser.minutes);
  });

  it("filters by range (presets, custom, hourly buckets) and names a bad range", async () => {
    const { user, key, keyId } = await teamWithKey("Ranges");
    const done = await postV1(
      "/chat/completions",
      { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 3, temperature: 0 },
      { key },
    );
    expect(done.status).toBe(200);
    const month = await waitFor(async () => (await usage(user, "?range=30d")).body, {
      until: (r) => r.totals.requests === 1,
      timeoutMs: 5000,
      intervalMs: 50,
      message: "the request in the report",
    });
    expect(month.range).toEqual({ preset: "30d", bucket: "day" });
    expect(month.buckets).toHaveLength(30);
    expect(month.by_key).toEqual([
      expect.objectContaining({ key_id: keyId, requests: 1, output_tokens: 3, session_minutes: 0 }),
    ]);

    const day = (await usage(user, "?range=24h")).body;
    expect(day.range).toEqual({ preset: "24h", bucket: "hour" });
    expect(day.buckets.length).toBeGreaterThanOrEqual(24);
    expect(day.buckets.reduce((s: number, b: any) => s + b.requests, 0)).toBe(1);

    const past = (await usage(user, "?from=2020-01-01&to=2020-01-31")).body;
    expect(past.range.preset).toBe("custom");
    expect(past.totals.requests).toBe(0);
    expect(past.buckets).toHaveLength(31);
    expect(past.by_key).toEqual([]);

    const backwards = await usage(user, "?from=2026-02-01&to=2026-01-01");
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatchObject({ code: "invalid_request", param: "to" });
    expect((await usage(user, "?range=decade")).body.error.param).toBe("range");
  });

  it("exports the range as CSV: one row per day × model and per day × session kind", async () => {
    const { user, key } = await teamWithKey("Csv");
    await postV1(
      "/chat/completions",
      { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 2, temperature: 0 },
      { key },
    );
    const id = await startBrowser(key);
    await waitFor(async () => (await usage(user)).body, {
      until: (r) => r.totals.requests === 1 && r.sessions.browser.minutes > 0,
      timeoutMs: 15_000,
      message: "a request and session time",
    });
    expect((await call("DELETE", `/computers/${id}`, { key })).status).toBe(204);

    const res = await fetch(`${inject("baseUrl")}/api/usage/csv?range=7d`, { headers: { cookie: user.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="cabin-usage-csv-[a-z0-9-]+-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("date,line_type,name,requests,input_tokens,output_tokens,cost_usd,session_minutes");
    const today = new Date().toISOString().slice(0, 10);
    const model = lines.find((l) => l.startsWith(`${today},model,${MODEL},`))!.split(",");
    expect(model.slice(3, 4)).toEqual(["1"]);
    expect(model[5]).toBe("2");
    const session = lines.find((l) => l.startsWith(`${today},session,browser,`))!.split(",");
    expect(Number(session[7])).toBeGreaterThan(0);
    expect(lines).toHaveLength(3);

    expect((await call("GET", "/api/usage/csv", { key: null })).status).toBe(401);
  });
});

describe("settings", () => {
  it("shows the organization and the operator's facts without secrets", async () => {
    const alice = await signUp("Facts");
    const res = await alice.request("GET", "/api/organization");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      organization: { name: "Facts's team" },
      role: "owner",
      can_edit: true,
      can_delete: true,
      can_leave: false,
      facts: {
        plan_max_lifetime_seconds: expect.any(Number),
        proxy_configured: expect.any(Boolean),
        cdp_offered: expect.any(Boolean),
      },
    });
    expect(res.body.facts.desktop).toHaveProperty("available");
    expect(res.body.facts.models.find((m: any) => m.id === MODEL)).toEqual({
      id: MODEL,
      backend: "local",
      placeholder: true,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/https?:\/\//);
  });

  it("renames, refuses a taken slug with 409 and a bad one with 400", async () => {
    const alice = await signUp("Renamer");
    const bob = await signUp("Other");
    const bobSlug = (await bob.request("GET", "/api/organization")).body.organization.slug;
    const slug = `acme-${Date.now()}`;
    const renamed = await alice.request("PATCH", "/api/organization", { name: "Acme Labs", slug });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Acme Labs", slug });
    expect((await alice.request("GET", "/api/me")).body.organization.name).toBe("Acme Labs");

    const taken = await alice.request("PATCH", "/api/organization", { slug: bobSlug });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "conflict", param: "slug" });
    expect(taken.body.error.message).toContain(`'${bobSlug}' is taken`);
    const bad = await alice.request("PATCH", "/api/organization", { slug: "Not A Slug" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("slug");
    expect((await alice.request("PATCH", "/api/organization", { name: " " })).body.error.param).toBe("name");
    expect((await alice.request("GET", "/api/organization")).body.organization).toMatchObject({
      name: "Acme Labs",
      slug,
    });
  });

  it("lets a member read but not rename or delete, and leave; the last owner cannot leave", async () => {
    const owner = await signUp("Owner");
    const member = await addMember(owner, "member");
    const seen = await member.request("GET", "/api/organization");
    expect(seen.body).toMatchObject({ role: "member", can_edit: false, can_delete: false, can_leave: true });
    const rename = await member.request("PATCH", "/api/organization", { name: "Taken over" });
    expect(rename.status).toBe(403);
    expect(
      (await member.request("DELETE", "/api/organization", { confirm_slug: seen.body.organization.slug })).status,
    ).toBe(403);

    const ownerLeaves = await owner.request("POST", "/api/organization/leave");
    expect(ownerLeaves.status).toBe(409);
    expect(ownerLeaves.body.error.message).toMatch(/last owner/);

    const left = await member.request("POST", "/api/organization/leave");
    expect(left.status).toBe(200);
    // The invitee still has the team they got at sign-up.
    expect(left.body.next_organization).toMatchObject({ name: "Invitee's team" });
    expect((await member.request("GET", "/api/me")).body.organization.name).toBe("Invitee's team");
    expect((await owner.request("GET", "/api/organization")).body.member_count).toBe(1);
  });

  it("deletes by the owner with the typed slug: live sessions stopped, keys dead, spend forgotten", async () => {
    const { user, key, keyId } = await teamWithKey("Doomed");
    const id = await startBrowser(key);
    const { slug, id: orgId } = (await user.request("GET", "/api/organization")).body.organization;
    // Spend on record: the organization's and the key's month totals.
    expect(
      (
        await postV1(
          "/chat/completions",
          { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 2 },
          { key },
        )
      ).status,
    ).toBe(200);
    await expect.poll(() => monthTotalRows(orgId, keyId), { timeout: 15_000 }).toBe(2);

    const wrong = await user.request("DELETE", "/api/organization", { confirm_slug: "nope" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.param).toBe("confirm_slug");
    expect((await call("GET", `/computers/${id}`, { key })).body.status).not.toBe("terminated");

    const deleted = await user.request("DELETE", "/api/organization", { confirm_slug: slug });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ next_organization: null, stopped_sessions: 1 });
    expect((await call("GET", `/computers/${id}`, { key })).status).toBe(401);
    expect((await user.request("GET", "/api/organization")).status).toBe(401);
    expect(await monthTotalRows(orgId, keyId)).toBe(0);
  });
});
