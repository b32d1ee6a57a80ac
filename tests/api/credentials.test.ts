// @needs server postgres chromium
// The credential vault through HTTP against a running server, a real Chromium and
// database (docs/credentials.md): create, list, read, replace and delete a login;
// fill_credentials types it into a loopback login form — user name, password and the
// current TOTP code — which records what it received; a page on another host is
// refused naming both hosts; an agent task naming the credential fills it through the
// loop's tool. The password and TOTP secret appear in no answer, session event, model
// request or server log line.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeBase32, totp } from "@/lib/credentials/totp";
import { agentCall, ended, SCRIPTED_MODEL, startAgentWorld, waitForTask, type AgentWorld } from "./agent-fixtures";
import { startLoginSite, type LoginSite } from "./login-site";
import { sse } from "./stream-client";
import { waitFor } from "./wait-for";

const PASSWORD = "Pw-7f3a9c-hunter2-vault";
const ROTATED = "Pw-rotated-51c2e8-vault";
const USERNAME = "ada@acme.test";
const TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP";
const SECRETS = [PASSWORD, ROTATED, TOTP_SECRET];

let world: AgentWorld;
let site: LoginSite;
/** Every answer's text, checked at the end for the values. */
const answers: string[] = [];
const sessions: string[] = [];

async function as(key: string, method: string, path: string, body?: unknown) {
  const res = await agentCall(world, key, method, path, body);
  answers.push(JSON.stringify(res.body ?? null));
  return res;
}
const a = (method: string, path: string, body?: unknown) => as(world.key, method, path, body);

/**
 * The codes valid around a submission: the one of its 30-second window and the one before (the fill may be just
 * before a boundary).
 */
function codesAround(at: number): string[] {
  const key = decodeBase32(TOTP_SECRET)!;
  return [totp(key, { at }), totp(key, { at: at - 30 })];
}

async function browserOn(path: string) {
  const created = await a("POST", "/computers", { kind: "browser" });
  expect(created.status).toBe(200);
  sessions.push(created.body.id);
  const opened = await a("POST", `/computers/${created.body.id}/execute`, {
    action: { type: "go_to_url", url: `${site.url}${path}` },
  });
  expect(opened.body.status).toBe("success");
  return created.body.id as string;
}

beforeAll(async () => {
  [world, site] = await Promise.all([startAgentWorld(), startLoginSite()]);
}, 120_000);

afterAll(async () => {
  await Promise.all(sessions.map((id) => agentCall(world, world.key, "DELETE", `/computers/${id}`).catch(() => {})));
  await site?.close();
  await world?.close();
});

describe("the credential vault", () => {
  it("stores a login and shows its name, domain and value names, never its values", async () => {
    const body = {
      name: "acme",
      domain: "127.0.0.1",
      values: { username: USERNAME, password: PASSWORD },
      totp_secret: TOTP_SECRET.toLowerCase(),
    };
    const created = await a("POST", "/credentials", body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "acme",
      domain: "127.0.0.1",
      fields: ["username", "password"],
      has_totp: true,
    });
    expect(Object.keys(created.body).sort()).toEqual([
      "created_at",
      "domain",
      "fields",
      "has_totp",
      "name",
      "updated_at",
    ]);

    const again = await a("POST", "/credentials", body);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "conflict", param: "name" });

    const listed = await a("GET", "/credentials");
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { name: string }) => c.name)).toEqual(["acme"]);
    const one = await a("GET", "/credentials/acme");
    expect(one.body).toEqual(created.body);
    expect((await a("GET", "/credentials/nope")).status).toBe(404);

    // Another organization sees none of it.
    expect((await as(world.keyB, "GET", "/credentials")).body.data).toEqual([]);
    expect((await as(world.keyB, "GET", "/credentials/acme")).status).toBe(404);
    expect((await as(world.keyB, "DELETE", "/credentials/acme")).status).toBe(404);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const good = { name: "bad", domain: "acme.test", values: { password: PASSWORD } };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, name: "with space" }, "name"],
      [{ ...good, domain: "acme.test/login" }, "domain"],
      [{ name: "bad", values: good.values }, "domain"],
      [{ ...good, values: {} }, "values"],
      [{ ...good, values: { password: 12 } }, "values.password"],
      [{ ...good, totp_secret: "not base32 at all!" }, "totp_secret"],
      [{ ...good, color: "red" }, "color"],
    ];
    for (const [body, param] of cases) {
      const res = await a("POST", "/credentials", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
    expect((await a("GET", "/credentials/bad")).status).toBe(404);
  });

  it("replaces a login (a rotated password) and deletes one", async () => {
    const before = (await a("GET", "/credentials/acme")).body;
    const replaced = await a("PUT", "/credentials/acme", {
      domain: "127.0.0.1",
      values: { username: USERNAME, password: ROTATED },
      totp_secret: TOTP_SECRET,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: "acme", fields: ["username", "password"], has_totp: true });
    expect(replaced.body.created_at).toBe(before.created_at);
    expect((await a("PUT", "/credentials/acme", { domain: "127.0.0.1" })).body.error.param).toBe("values");

    expect((await a("POST", "/credentials", { name: "gone", domain: "x.test", values: { a: "b" } })).status).toBe(201);
    expect((await agentCall(world, world.key, "DELETE", "/credentials/gone")).status).toBe(204);
    expect((await a("GET", "/credentials/gone")).status).toBe(404);
    expect((await a("DELETE", "/credentials/gone")).status).toBe(404);
  });
});

describe("fill_credentials", () => {
  it("fills user name, password and the current one-time code, with input events, and records no value", async () => {
    const id = await browserOn("/login");
    const run = await a("POST", `/computers/${id}/batch`, {
      actions: [
        { type: "fill_credentials", name: "acme" },
        { type: "keypress", keys: ["Enter"] },
      ],
    });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe("success");
    expect(run.body.results[0].result).toEqual({ credential: "acme", filled: ["username", "password", "otp"] });

    const submitted = (await waitFor(() => site.submissions.at(-1), { message: "the form submission" }))!;
    expect(submitted).toMatchObject({ user: USERNAME, password: ROTATED });
    expect(codesAround(submitted.at)).toContain(submitted.code);
    // Playwright's fill: the page's own listeners saw the typing (one input event per field).
    expect(submitted.events).toMatchObject({ email: 1, pass: 1, code: 1 });

    // The session's events carry the action by name and nothing of the values.
    const events = await sse({ base: world.server.url, key: world.key }, `/computers/${id}/events?since=0`);
    const replayed = await events.until(
      (e) => e.event === "action_response" && e.data.request_id === run.body.results[1].request_id,
    );
    events.abort();
    const fill = replayed.find((e) => e.event === "action_request" && e.data.action?.type === "fill_credentials");
    expect(fill?.data.action).toEqual({ type: "fill_credentials", name: "acme" });
    const text = JSON.stringify(replayed);
    for (const secret of [...SECRETS, USERNAME, submitted.code]) expect(text).not.toContain(secret);
  });

  it("refuses a page on another host, naming both hosts, and fills nothing", async () => {
    expect(
      (await a("POST", "/credentials", { name: "other", domain: "acme.test", values: { password: PASSWORD } })).status,
    ).toBe(201);
    const id = await browserOn("/login");
    const count = site.submissions.length;
    const res = await a("POST", `/computers/${id}/execute`, { action: { type: "fill_credentials", name: "other" } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain("acme.test");
    expect(res.body.error.message).toContain("127.0.0.1");
    const html = await a("POST", `/computers/${id}/execute`, { action: { type: "get_html_content" } });
    expect(html.body.status).toBe("success");
    expect(html.body.result.html_content).not.toContain(PASSWORD);

    const unknown = await a("POST", `/computers/${id}/execute`, { action: { type: "fill_credentials", name: "nope" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe("name");
    const noName = await a("POST", `/computers/${id}/execute`, { action: { type: "fill_credentials" } });
    expect(noName.status).toBe(400);
    expect(noName.body.error.param).toBe("action.name");
    expect(site.submissions.length).toBe(count);
  });
});

describe("agent tasks with credentials", () => {
  it("refuses unknown credential names at the start, naming them", async () => {
    const res = await a("POST", "/agent/tasks", {
      instruction: "Sign in",
      kind: "browser",
      model: SCRIPTED_MODEL,
      credentials: ["acme", "nope", "missing"],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe("credentials");
    expect(res.body.error.message).toContain("'nope'");
    expect(res.body.error.message).toContain("'missing'");
  });

  it("offers the model a fill_credentials tool; the login is filled and the model never sees the values", async () => {
    world.upstream.setScript([
      { text: "I will sign in.", call: { name: "fill_credentials", arguments: { name: "acme" } } },
      { action: { type: "keypress", keys: ["Enter"] } },
      { done: { result: "signed in" } },
    ]);
    const requestsBefore = world.upstream.requests.length;
    const count = site.submissions.length;
    const started = await a("POST", "/agent/tasks", {
      instruction: "Sign in to the site",
      kind: "browser",
      model: SCRIPTED_MODEL,
      start_url: `${site.url}/login`,
      credentials: ["acme"],
      max_steps: 5,
    });
    expect(started.status).toBe(201);
    sessions.push(started.body.computer_id);
    const task = await waitForTask(world, world.key, started.body.task_id, ended, 60_000);
    answers.push(JSON.stringify(task));
    expect(task.status).toBe("completed");

    const submitted = (await waitFor(() => site.submissions[count], { message: "the task submission" }))!;
    expect(submitted).toMatchObject({ user: USERNAME, password: ROTATED });
    expect(codesAround(submitted.at)).toContain(submitted.code);

    const requests = world.upstream.requests.slice(requestsBefore);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const tool = requests[0]!.body.tools.find((t: { name?: string }) => t.name === "fill_credentials");
    expect(tool.description).toContain("'acme' for 127.0.0.1");
    const answered = JSON.stringify(requests[1]!.body.input);
    expect(answered).toContain("function_call_output");
    expect(answered).toContain("otp");
    for (const request of requests) {
      const text = JSON.stringify(request.body);
      for (const secret of [...SECRETS, USERNAME, submitted.code]) expect(text).not.toContain(secret);
    }
    // The task's steps record the tool call as the action, by name.
    expect(task.steps.map((s: any) => s.action?.type ?? null)).toEqual(["fill_credentials", "keypress", null]);
    expect(task.steps[0].action).toEqual({ type: "fill_credentials", name: "acme" });
  });

  it("leaves no value in any answer or in the server's log", () => {
    const all = answers.join("\n");
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    const log = readFileSync(world.server.logFile, "utf8");
    expect(log.length).toBeGreaterThan(0);
    for (const secret of SECRETS) expect(log).not.toContain(secret);
  });
});
