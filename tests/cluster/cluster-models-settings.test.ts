// @needs cluster
// Settings → Models on two nodes of one PostgreSQL (docs/models.md, "Every
// node"): a model an owner adds, edits and deletes through node A is served,
// changed and gone on node B within seconds, B using the key A sealed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startKeyCheckingUpstream, UPSTREAM_KEY, type KeyCheckingUpstream } from "../api/key-checking-upstream";
import type { TestServer } from "../api/harness";
import { waitFor } from "../api/wait-for";
import { ensurePostgres, startNode, stopPostgres } from "./cluster-fixtures";

let a: TestServer;
let b: TestServer;
let upstream: KeyCheckingUpstream;

beforeAll(async () => {
  await ensurePostgres();
  upstream = await startKeyCheckingUpstream();
  a = await startNode();
  b = await startNode({ databaseUrl: a.databaseUrl });
}, 240_000);

afterAll(async () => {
  await upstream?.close();
  for (const s of [b, a].filter(Boolean)) await s.destroy();
  await stopPostgres();
}, 120_000);

/** An owner signed up through node A; the login cookie works on every node. */
async function ownerOn(node: TestServer) {
  const email = `cluster-models-${Date.now()}@example.test`;
  const res = await fetch(`${node.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: node.url },
    body: JSON.stringify({ email, password: "correct horse battery", name: "Cluster" }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const request = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${node.url}${path}`, {
      method,
      headers: { cookie, origin: node.url, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: await r.json() };
  };
  const key = await request("POST", "/api/keys", { name: "cluster" });
  expect(key.status).toBe(201);
  return { request, key: key.body.key as string };
}

async function chatOn(node: TestServer, key: string, model: string) {
  const res = await fetch(`${node.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi" }], max_tokens: 4 }),
  });
  const body = await res.json();
  return { status: res.status, text: body.choices?.[0]?.message?.content as string | undefined };
}

describe("models set up in the dashboard, across nodes", () => {
  it("is served by the other node within seconds after each add, edit and delete", async () => {
    const owner = await ownerOn(a);
    expect((await chatOn(b, owner.key, "cluster.vision")).status).toBe(404);
    const created = await owner.request("POST", "/api/models", {
      id: "cluster.vision",
      provider: "openai-compatible",
      base_url: upstream.url,
      api_key: UPSTREAM_KEY,
      upstream_model: "vision-a",
    });
    expect(created.status).toBe(201);
    expect(await chatOn(a, owner.key, "cluster.vision")).toEqual({ status: 200, text: "ready from vision-a" });
    await waitFor(() => chatOn(b, owner.key, "cluster.vision"), {
      until: (r) => r.text === "ready from vision-a",
      message: "node B to serve the new model",
    });
    // B opened the key A sealed: the upstream saw it in clear.
    expect(upstream.seen.at(-1)).toEqual({ authorization: `Bearer ${UPSTREAM_KEY}`, model: "vision-a" });

    expect(
      (await owner.request("PATCH", `/api/models/${created.body.id}`, { upstream_model: "vision-b" })).status,
    ).toBe(200);
    await waitFor(() => chatOn(b, owner.key, "cluster.vision"), {
      until: (r) => r.text === "ready from vision-b",
      message: "node B to serve the edit",
    });

    expect((await owner.request("DELETE", `/api/models/${created.body.id}`)).status).toBe(200);
    await waitFor(() => chatOn(b, owner.key, "cluster.vision"), {
      until: (r) => r.status === 404,
      message: "node B to drop the deleted model",
    });
  });
});
