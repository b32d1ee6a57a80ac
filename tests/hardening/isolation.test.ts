// @needs server quiet-machine chromium desktop
// Isolation (docs/development.md "Hardening suites"): every operation of /openapi.json that names a session (and the
// upgrades that are not in it: CDP, live view, VNC) called with another organization's
// key on organization A's live browser, desktop and stored /v1 response answers 404, and
// afterwards A's things are exactly as they were. A revoked key is refused (401) on both
// surfaces on the very next request.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "../api/client";
import { api, createSession, execute, html, startSite, type Site } from "../api/computers-fixtures";
import { canRunDesktops, createDesktop, exec } from "../api/desktop-fixtures";
import { runCli } from "../api/harness";
import { operationsOf, type Operation } from "./hostile-requests";

const a = { key: inject("apiKey") };
const b = { key: inject("apiKeyB") };
const shared = { databaseUrl: inject("databaseUrl"), dataDir: inject("dataDir") };

let browserId = "";
let desktopId = "";
let responseId = "";
let tabId = "";
let operations: Operation[];
let site: Site;

beforeAll(async () => {
  site = await startSite();
  browserId = (await createSession({}, a)).id;
  await execute(browserId, { type: "go_to_url", url: `${site.url}/page?n=A-ONLY` }, a);
  tabId = (await tabsOf(browserId))[0].tab_id;
  if (canRunDesktops) {
    desktopId = (await createDesktop(a)).id;
    await exec(a, desktopId, "echo A-ONLY > /tmp/mine");
  }
  const model = (await call<{ data: { id: string }[] }>("GET", "/v1/models", { key: a.key })).body.data[0].id;
  const created = await call<{ id: string }>("POST", "/v1/responses", {
    key: a.key,
    body: { model, input: "hello", max_output_tokens: 4, store: true },
  });
  expect(created.status).toBe(200);
  responseId = created.body.id;
  operations = operationsOf((await call("GET", "/openapi.json", { key: null })).body as never);
}, 180_000);
afterAll(async () => {
  for (const id of [browserId, desktopId].filter(Boolean)) await api("DELETE", `/computers/${id}`, undefined, a);
  await site?.close();
});

const tabsOf = async (id: string) =>
  (await api("GET", `/computers/${id}/tabs`, undefined, a)).body.result.tabs as { tab_id: string }[];

/** A raw request (streams answer 200 with the error in their first line, so read only the head and first chunk). */
function send(
  method: string,
  path: string,
  body: unknown,
  key: string,
  upgrade = false,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (payload) headers["content-type"] = "application/json";
    if (upgrade)
      Object.assign(headers, {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      });
    const req = http.request(new URL(path, inject("baseUrl")), { method, headers, agent: false }, (res) => {
      res.once(
        "data",
        (chunk: Buffer) => (resolve({ status: res.statusCode!, text: chunk.toString("utf8") }), res.destroy()),
      );
      res.once("end", () => resolve({ status: res.statusCode!, text: "" }));
    });
    req.on("upgrade", (res, socket) => (socket.destroy(), resolve({ status: res.statusCode!, text: "upgraded" })));
    req.on("error", reject);
    req.end(payload);
  });
}

/** Not found, as a plain answer or as the first line of a stream that is 200 once authenticated. */
const notFound = (answer: { status: number; text: string }) =>
  answer.status === 404 ||
  (answer.status === 200 && /"(code|type)":"not_found(_error)?"/.test(answer.text.split("\n")[0]));

describe("another organization's key", () => {
  it("gets 404 from every operation on A's browser, desktop and stored response, and changes nothing", async () => {
    const before = (await api("GET", `/computers/${browserId}`, undefined, a)).body;
    const targets: { template: string; method: string; path: string; body: unknown }[] = [];
    for (const op of operations) {
      const owned =
        op.template.includes("{id}") &&
        (op.template.startsWith("/computers") || op.template.startsWith("/v1/responses"));
      if (!owned) continue;
      const ids = op.template.startsWith("/v1/") ? [responseId] : [browserId, desktopId].filter(Boolean);
      for (const id of ids) {
        const path = op.template.replace("{id}", id).replace("{tab_id}", tabId).replace("{name}", "shot.png");
        targets.push({ template: op.template, method: op.method, path, body: op.example });
      }
    }
    for (const id of [browserId, desktopId].filter(Boolean)) {
      for (const upgrade of ["cdp", "ws", "vnc"])
        targets.push({
          template: `upgrade /computers/{id}/${upgrade}`,
          method: "GET",
          path: `/computers/${id}/${upgrade}`,
          body: undefined,
        });
    }
    expect(targets.length).toBeGreaterThan(30);

    const leaks: string[] = [];
    for (const t of targets) {
      const answer = await send(t.method, t.path, t.body, b.key, t.template.startsWith("upgrade"));
      if (!notFound(answer)) leaks.push(`${t.method} ${t.path}: ${answer.status} ${answer.text.slice(0, 120)}`);
    }
    console.log(
      `isolation suite: ${targets.length} calls with another organization's key ` +
        `(${new Set(targets.map((t) => `${t.method} ${t.template}`)).size} operations), ${leaks.length} not ` +
        `answered 404`,
    );
    expect(leaks).toEqual([]);

    // Nothing changed: the session is live with its page, the desktop's file is there, the response is A's.
    const after = (await api("GET", `/computers/${browserId}`, undefined, a)).body;
    expect(after.status).toBe(before.status);
    expect(await html(browserId, a)).toContain("A-ONLY");
    expect(await tabsOf(browserId)).toHaveLength(1);
    if (desktopId) expect((await exec(a, desktopId, "cat /tmp/mine")).stdout).toBe("A-ONLY\n");
    expect((await call("GET", `/v1/responses/${responseId}`, { key: a.key })).status).toBe(200);
    const listedForB = (await api("GET", "/computers", undefined, b)).body as { id: string }[];
    expect(listedForB.map((row) => row.id)).not.toContain(browserId);
  });
});

describe("a revoked key", () => {
  it("is refused on /computers and /v1 on the next request", async () => {
    const { key } = JSON.parse(
      await runCli(shared, ["keys", "create", "--org", "Org A", "--name", "isolation", "--json"]),
    ) as { key: string };
    expect((await api("GET", "/computers", undefined, { key })).status).toBe(200);
    expect((await call("GET", "/v1/models", { key })).status).toBe(200);
    await runCli(shared, ["keys", "revoke", key.slice(0, 12)]);
    const computers = await api("GET", `/computers/${browserId}`, undefined, { key });
    const v1 = await call("GET", "/v1/models", { key });
    expect([computers.status, v1.status]).toEqual([401, 401]);
    expect(computers.body.error.code).toBeTruthy();
    expect(v1.body.error.type).toBeTruthy();
  });
});
