// @needs server light postgres
// Settings → Models through HTTP: an owner adds, lists (never the key), edits,
// tests and removes an upstream model; it answers /v1 for the owner's
// organization right after creation, through a stand-in OpenAI-wire upstream on
// loopback that only answers the decrypted key; members are refused; bad input
// names the field; MODELS wins for the ids it names; the key is sealed in the row.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { closeDbs, db, postV1 } from "./models-helpers";
import {
  addMember,
  ownerWithKey,
  startKeyCheckingUpstream,
  UPSTREAM_KEY as KEY,
  type KeyCheckingUpstream,
} from "./models-settings-fixtures";
import { waitFor } from "./wait-for";

let upstream: KeyCheckingUpstream;
let upstreamUrl: string;
let seen: KeyCheckingUpstream["seen"];

beforeAll(async () => {
  upstream = await startKeyCheckingUpstream();
  upstreamUrl = upstream.url;
  seen = upstream.seen;
});

afterAll(async () => {
  await upstream.close();
  await closeDbs();
});

const model = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  provider: "openai-compatible",
  base_url: upstreamUrl,
  api_key: KEY,
  upstream_model: "vision-large-2",
  prices: { input: 1.5, output: 6 },
  capabilities: { vision: true, tools: true },
  ...extra,
});

const chat = (key: string, modelId: string) =>
  postV1("/chat/completions", { model: modelId, messages: [{ role: "user", content: "Hi" }], max_tokens: 8 }, { key });

describe("Settings → Models", () => {
  // Also: seals the key in the row.
  it("adds a model that answers /v1 at once with the decrypted key, lists it without the key", async () => {
    const { user, key } = await ownerWithKey("Stored");
    const created = await user.request("POST", "/api/models", model("acme.vision", { aliases: ["acme.v"] }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      model_id: "acme.vision",
      provider: "openai-compatible",
      base_url: upstreamUrl,
      upstream_model: "vision-large-2",
      prices: { input: 1.5, output: 6 },
      aliases: ["acme.v"],
      api_key_hint: `…${KEY.slice(-4)}`,
      shadowed_by_environment: false,
    });
    expect(JSON.stringify(created.body)).not.toContain(KEY);

    const before = seen.length;
    const answered = await chat(key, "acme.vision");
    expect(answered.status).toBe(200);
    const body = await answered.json();
    expect(body.choices[0].message.content).toBe("ready from vision-large-2");
    expect(seen.slice(before)).toEqual([{ authorization: `Bearer ${KEY}`, model: "vision-large-2" }]);
    // The alias answers too, and the cost is the stored prices'.
    const viaAlias = await chat(key, "acme.v");
    expect(viaAlias.status).toBe(200);
    expect(Number(viaAlias.headers.get("x-cabin-cost-usd"))).toBeCloseTo((7 * 1.5 + 1 * 6) / 1e6, 12);

    const listed = await user.request("GET", "/api/models");
    expect(listed.status).toBe(200);
    expect(listed.body.can_edit).toBe(true);
    expect(listed.body.data.map((m: { model_id: string }) => m.model_id)).toEqual(["acme.vision"]);
    expect(listed.body.environment.map((m: { model_id: string }) => m.model_id)).toContain("svc.sm-1");
    expect(JSON.stringify(listed.body)).not.toContain(KEY);

    const row = await db().storedModel.findFirstOrThrow({ where: { id: created.body.id } });
    expect(row.apiKeySealed).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(KEY).toString("base64"));
  });

  // Also: elsewhere it does not exist.
  it("serves a stored model to its own organization only: /v1/models lists it there", async () => {
    const { user, key } = await ownerWithKey("Own");
    expect((await user.request("POST", "/api/models", model("own.only"))).status).toBe(201);
    const { key: otherKey } = await ownerWithKey("Other");
    const list = async (k: string) =>
      (
        (await (
          await fetch(`${inject("baseUrl")}/v1/models`, { headers: { authorization: `Bearer ${k}` } })
        ).json()) as {
          data: { id: string }[];
        }
      ).data.map((m) => m.id);
    expect(await list(key)).toContain("own.only");
    expect(await list(otherKey)).not.toContain("own.only");
    const refused = await chat(otherKey, "own.only");
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe("model_not_found");
  });

  // Also: a wrong key comes back as the provider's error in the test button.
  it("edits (keeping or replacing the key) and deletes", async () => {
    const { user, key } = await ownerWithKey("Edit");
    const created = await user.request("POST", "/api/models", model("edit.me"));
    const id = created.body.id as string;

    const tested = await user.request("POST", `/api/models/${id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ ok: true, answer: "ready from vision-large-2", error: null });
    expect(tested.body.latency_ms).toBeGreaterThanOrEqual(0);

    // Renamed upstream model, same key (absent = kept).
    const renamed = await user.request("PATCH", `/api/models/${id}`, {
      upstream_model: "vision-small-1",
      prices: { input: 0.5, output: 1 },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ upstream_model: "vision-small-1", api_key_hint: `…${KEY.slice(-4)}` });
    expect((await (await chat(key, "edit.me")).json()).choices[0].message.content).toBe("ready from vision-small-1");

    // A wrong key: the test shows the provider's own message and status, not a success.
    const rekeyed = await user.request("PATCH", `/api/models/${id}`, { api_key: "sk-wrong-0000" });
    expect(rekeyed.body.api_key_hint).toBe("…0000");
    const failed = await user.request("POST", `/api/models/${id}/test`);
    expect(failed.status).toBe(200);
    expect(failed.body.ok).toBe(false);
    expect(failed.body.error).toContain("Incorrect API key provided.");
    expect(failed.body.status).toBeGreaterThanOrEqual(400);

    const deleted = await user.request("DELETE", `/api/models/${id}`);
    expect(deleted.status).toBe(200);
    expect((await chat(key, "edit.me")).status).toBe(404);
    expect((await user.request("GET", "/api/models")).body.data).toEqual([]);
    expect((await user.request("DELETE", `/api/models/${id}`)).status).toBe(404);
  });

  // Also: hides other organizations' models (404).
  it("refuses members' writes (403), shows them the list without keys", async () => {
    const { user: owner } = await ownerWithKey("Roles");
    const created = await owner.request("POST", "/api/models", model("roles.m"));
    const member = await addMember(owner, "member");
    const listed = await member.request("GET", "/api/models");
    expect(listed.status).toBe(200);
    expect(listed.body.can_edit).toBe(false);
    expect(listed.body.data[0]).toMatchObject({ model_id: "roles.m", api_key_hint: `…${KEY.slice(-4)}` });
    expect(JSON.stringify(listed.body)).not.toContain(KEY);
    for (const [method, path, body] of [
      ["POST", "/api/models", model("roles.n")],
      ["PATCH", `/api/models/${created.body.id}`, { upstream_model: "x" }],
      ["DELETE", `/api/models/${created.body.id}`, undefined],
      ["POST", `/api/models/${created.body.id}/test`, undefined],
    ] as const) {
      const res = await member.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    const { user: stranger } = await ownerWithKey("Stranger");
    expect((await stranger.request("PATCH", `/api/models/${created.body.id}`, { upstream_model: "x" })).status).toBe(
      404,
    );
    expect((await stranger.request("DELETE", `/api/models/${created.body.id}`)).status).toBe(404);
  });

  it("answers bad input with a 400 naming the field", async () => {
    const { user } = await ownerWithKey("Bad");
    const cases: [Record<string, unknown>, string][] = [
      [model("bad url"), "id"],
      [model("bad.provider", { provider: "azure" }), "provider"],
      [model("bad.url", { base_url: "ftp://example.test" }), "base_url"],
      [model("bad.nourl", { base_url: "" }), "base_url"],
      [model("bad.price", { prices: { input: -1, output: 1 } }), "prices.input"],
      [model("bad.caps", { capabilities: { vision: "yes" } }), "capabilities.vision"],
      [model("bad.alias", { aliases: ["has space"] }), "aliases[0]"],
      [model("bad.field", { colour: "red" }), "colour"],
    ];
    for (const [body, param] of cases) {
      const res = await user.request("POST", "/api/models", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toContain(`'${param}'`);
    }
    expect((await user.request("GET", "/api/models")).body.data).toEqual([]);
  });

  // Also: the built-in alias may be taken.
  it("lets MODELS win: its ids are refused (409 naming the field) and shadow a stored row that names one", async () => {
    const { user, key } = await ownerWithKey("Env");
    const taken = await user.request("POST", "/api/models", model("svc.sm-1"));
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("svc.sm-1");
    const aliasTaken = await user.request("POST", "/api/models", model("env.mine", { aliases: ["svc.cua-fast"] }));
    expect(aliasTaken.status).toBe(409);
    expect(aliasTaken.body.error.message).toContain("svc.cua-fast");
    expect((await user.request("POST", "/api/models", model("env.mine"))).status).toBe(201);
    const clash = await user.request("POST", "/api/models", model("env.other", { aliases: ["env.mine"] }));
    expect(clash.status).toBe(409);

    // The Lightcone id public clients send is only a built-in alias: an organization may point it at its own model.
    const cua = await user.request("POST", "/api/models", model("env.cua", { aliases: ["tzafon.northstar-cua-fast"] }));
    expect(cua.status).toBe(201);
    expect((await (await chat(key, "tzafon.northstar-cua-fast")).json()).choices[0].message.content).toBe(
      "ready from vision-large-2",
    );

    // Another node's write (here: this test process writing the database) is served within seconds: the
    // server polls the revision row. First a changed upstream model, then a row renamed to an id MODELS serves.
    await db().storedModel.update({
      where: { id: cua.body.id },
      data: {
        config: JSON.stringify({ backend: "openai-compatible", url: upstreamUrl, upstreamModel: "vision-polled" }),
      },
    });
    await db().storedModelRevision.update({ where: { id: 1 }, data: { revision: { increment: 1 } } });
    await waitFor(async () => (await (await chat(key, "env.cua")).json()).choices?.[0]?.message?.content, {
      until: (text) => text === "ready from vision-polled",
      message: "the server to serve the changed row",
    });

    await db().storedModel.update({ where: { id: cua.body.id }, data: { modelId: "svc.sm-1" } });
    await db().storedModelRevision.update({ where: { id: 1 }, data: { revision: { increment: 1 } } });
    await waitFor(async () => (await chat(key, "env.cua")).status, { until: (s) => s === 404, message: "the rename" });
    const listed = await user.request("GET", "/api/models");
    expect(listed.body.data.find((m: { model_id: string }) => m.model_id === "svc.sm-1")).toMatchObject({
      shadowed_by_environment: true,
    });
    const env = await (await chat(key, "svc.sm-1")).json();
    expect(env.choices[0].message.content).not.toContain("ready from");
    expect((await user.request("POST", `/api/models/${cua.body.id}/test`)).status).toBe(409);
  });
});
