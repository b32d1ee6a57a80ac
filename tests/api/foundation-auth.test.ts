// @needs server light postgres chromium
// The key path end to end: 401s on both surfaces, revocation at once, and
// organization isolation.
import OpenAI from "openai";
import { describe, expect, inject, it } from "vitest";
import { call } from "./client";
import { runCli } from "./harness";

const server = () => ({ databaseUrl: inject("databaseUrl"), dataDir: inject("dataDir") });

describe("API keys on /v1 and /computers", () => {
  const badKeys: [string, string | null][] = [
    ["missing", null],
    ["malformed", "not-a-key"],
    ["unknown", `cbn_${"x".repeat(48)}`],
  ];

  for (const [what, key] of badKeys) {
    it(`answers 401 for a ${what} key on /v1 in the OpenAI envelope`, async () => {
      const res = await call("GET", "/v1/models", { key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: { message: expect.any(String), type: "authentication_error", param: null, code: "invalid_api_key" },
      });
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    });

    it(`answers 401 for a ${what} key on /computers`, async () => {
      const res = await call("GET", "/computers", { key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    });
  }

  it("lists both models with the official openai client", async () => {
    const client = new OpenAI({ baseURL: `${inject("baseUrl")}/v1`, apiKey: inject("apiKey") });
    const ids = [];
    for await (const model of client.models.list()) {
      expect(model.object).toBe("model");
      expect(typeof model.created).toBe("number");
      expect(typeof model.owned_by).toBe("string");
      ids.push(model.id);
    }
    expect(ids).toEqual(expect.arrayContaining(["svc.sm-1", "svc.cua-fast"]));
  });

  it("stops accepting a key the moment it is revoked", async () => {
    const created = JSON.parse(
      await runCli(server(), ["keys", "create", "--org", "Org A", "--name", "short-lived", "--json"]),
    );
    expect((await call("GET", "/v1/models", { key: created.key })).status).toBe(200);
    await runCli(server(), ["keys", "revoke", created.key.slice(0, 12)]);
    const after = await call("GET", "/v1/models", { key: created.key });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/revoked/);
  });

  it("gives a client-supplied request id back", async () => {
    const res = await call("GET", "/api/health", { key: null, headers: { "x-request-id": "trace-123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-123");
  });
});

describe("unknown routes and health", () => {
  it("answers JSON 404 for unknown paths under /v1 and /computers", async () => {
    const v1 = await call("GET", "/v1/nope");
    expect(v1.status).toBe(404);
    expect(v1.body.error.type).toBe("not_found_error");
    const computers = await call("GET", "/computers/comp_0000/nope");
    expect(computers.status).toBe(404);
    expect(computers.body.error.code).toBe("not_found");
  });

  it("reports database and browser checks", async () => {
    const res = await call("GET", "/api/health", { key: null });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.checks.database.ok).toBe(true);
    expect(res.body.checks.browser.ok).toBe(true);
  });

  it("reports the placeholder model, loaded once it has served", async () => {
    expect(
      (await call("POST", "/v1/completions", { body: { model: "svc.sm-1", prompt: "Hi", max_tokens: 1 } })).status,
    ).toBe(200);
    const res = await call("GET", "/api/health", { key: null });
    expect(res.body.checks.models.models["svc.sm-1"]).toMatchObject({
      ok: true,
      backend: "local",
      placeholder: true,
      state: "ready",
    });
  });
});
