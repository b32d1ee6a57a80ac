// @needs server light postgres chromium
// Dashboard API through a real login: keys are per organization, shown once,
// and another organization's key is simply not found.
import { afterAll, describe, expect, inject, it } from "vitest";
import { WebSocket } from "ws";
import { call } from "./client";
import { closeDbs, MODEL, monthTotalRows, postV1 } from "./models-helpers";
import { signUp } from "./session-client";

afterAll(closeDbs);

describe("dashboard API keys", () => {
  it("requires a login", async () => {
    const res = await call("GET", "/api/keys", { key: null });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthorized");
  });

  it("puts a new user in a team of their own, as owner", async () => {
    const alice = await signUp("Alice");
    const me = await alice.request("GET", "/api/me");
    expect(me.status).toBe(200);
    expect(me.body.organization.name).toBe("Alice's team");
    expect(me.body.role).toBe("owner");
  });

  it("creates a key shown once, lists it by prefix, and it works on /v1", async () => {
    const alice = await signUp("Alice");
    const created = await alice.request("POST", "/api/keys", { name: "ci" });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^cbn_[0-9A-Za-z]{48}$/);
    // Dashboard JSON is snake_case like the public API.
    expect(created.body).toMatchObject({ name: "ci", organization_id: expect.any(String) });
    expect(created.body).not.toHaveProperty("organizationId");
    const list = await alice.request("GET", "/api/keys");
    const row = list.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(row).toMatchObject({
      name: "ci",
      prefix: created.body.key.slice(0, 12),
      revoked_at: null,
      last_used_at: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect((await call("GET", "/v1/models", { key: created.body.key })).status).toBe(200);
  });

  it("names the field of a bad body and rejects malformed JSON", async () => {
    const alice = await signUp();
    const empty = await alice.request("POST", "/api/keys", { name: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: "invalid_request", param: "name" });
    const res = await call("POST", "/api/keys", {
      key: null,
      rawBody: "{",
      headers: { cookie: alice.cookie, origin: inject("baseUrl") },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("isolates organizations: B neither sees nor revokes A's key", async () => {
    const alice = await signUp("Alice");
    const bob = await signUp("Bob");
    const key = await alice.request("POST", "/api/keys", { name: "alice-only" });
    const bobList = await bob.request("GET", "/api/keys");
    expect(bobList.body.data.map((k: { id: string }) => k.id)).not.toContain(key.body.id);
    const revoke = await bob.request("DELETE", `/api/keys/${key.body.id}`);
    expect(revoke.status).toBe(404);
    expect((await call("GET", "/v1/models", { key: key.body.key })).status).toBe(200);
  });

  it("refuses a key revoked in the dashboard from the next request, on both surfaces", async () => {
    const alice = await signUp("Alice");
    const key = await alice.request("POST", "/api/keys", { name: "to-revoke" });
    // Used first, so the server has it resolved (and cached) before the revocation.
    for (let i = 0; i < 3; i++) expect((await call("GET", "/v1/models", { key: key.body.key })).status).toBe(200);
    expect((await call("GET", "/computers", { key: key.body.key })).status).toBe(200);
    expect((await alice.request("DELETE", `/api/keys/${key.body.id}`)).status).toBe(200);
    const v1 = await call("GET", "/v1/models", { key: key.body.key });
    expect(v1.status).toBe(401);
    expect(v1.body.error.message).toMatch(/revoked/);
    expect((await call("GET", "/computers", { key: key.body.key })).status).toBe(401);
  });

  it("refuses the keys of a deleted organization at once, and forgets its spend", async () => {
    const alice = await signUp("Alice");
    const key = await alice.request("POST", "/api/keys", { name: "doomed" });
    expect((await call("GET", "/v1/models", { key: key.body.key })).status).toBe(200);
    const me = await alice.request("GET", "/api/me");
    const spent = await postV1(
      "/chat/completions",
      { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 2 },
      { key: key.body.key },
    );
    expect(spent.status).toBe(200);
    await expect.poll(() => monthTotalRows(me.body.organization.id, key.body.id), { timeout: 15_000 }).toBe(2);
    // Its live session ends with it (Better Auth's own endpoint, not only Settings).
    const session = await call("POST", "/computers", { key: key.body.key, body: {} });
    expect(session.status).toBe(200);
    // Its live view is the witness: the server ends the socket when the session ends.
    const live = new WebSocket(session.body.endpoints.ws);
    const closed = new Promise<string>((resolve) => {
      let reason = "";
      live.on("message", (data, binary) => {
        if (!binary) reason = JSON.parse(String(data)).reason ?? reason;
      });
      live.on("close", () => resolve(reason));
    });
    await new Promise((resolve, reject) => live.once("open", resolve).once("error", reject));
    const deleted = await alice.request("POST", "/api/auth/organization/delete", {
      organizationId: me.body.organization.id,
    });
    expect(deleted.status).toBe(200);
    expect(await closed).toBe("deleted");
    const after = await call("GET", "/v1/models", { key: key.body.key });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("invalid_api_key");
    expect(await monthTotalRows(me.body.organization.id, key.body.id)).toBe(0);
  });

  it("refuses a cross-origin mutation", async () => {
    const alice = await signUp();
    const forged = await call("POST", "/api/keys", {
      key: null,
      body: { name: "forged" },
      headers: { origin: "http://evil.example", cookie: alice.cookie },
    });
    expect(forged.status).toBe(403);
    const list = await alice.request("GET", "/api/keys");
    expect(list.body.data).toHaveLength(0);
  });
});
