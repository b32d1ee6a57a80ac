// @needs server postgres chromium
// Named browser profiles (docs/profiles.md): a profile carries cookies (session
// cookies too), local storage and IndexedDB from one session to a later one; one
// session at a time saves into it (a second writer is refused naming the holder,
// readers start beside it); list, read, delete; names checked; unused ones expire;
// a task starts from one and saves into it.
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agentCall, ended, SCRIPTED_MODEL, startAgentWorld, waitForTask, type AgentWorld } from "./agent-fixtures";
import { api, createSession, execute, html, waitFor, type Target } from "./computers-fixtures";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { closeDbs, db } from "./models-helpers";

const IDB = `function idb(mode, value) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("profile-test", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("kv");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      try {
        const tx = open.result.transaction("kv", mode === "write" ? "readwrite" : "readonly");
        const req = mode === "write" ? tx.objectStore("kv").put(value, "k") : tx.objectStore("kv").get("k");
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
      } catch (err) { reject(err); } // a missing store shows as "error", not as a page that never answers
    };
  });
}`;

/** /set?v= sets a persistent cookie, a session cookie, localStorage and IndexedDB; /read shows the four. */
async function startProfileSite(): Promise<LoopbackServer> {
  const page = (body: string) => `<!doctype html><html><body><script>${IDB}\n${body}</script></body></html>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site");
    const v = (url.searchParams.get("v") ?? "").replace(/[^a-z0-9-]/gi, "");
    const body =
      url.pathname === "/set"
        ? page(`document.cookie = "kept=${v}; max-age=86400; path=/";
          document.cookie = "sess=${v}; path=/";
          localStorage.setItem("k", "${v}");
          idb("write", "${v}").then(() => document.body.append("SET" + "-DONE"));`)
        : page(`const c = (n) => (document.cookie.match(new RegExp("(?:^|; )" + n + "=([^;]*)")) || [])[1] || "none";
          const values = (db) => [c("kept"), c("sess"), localStorage.getItem("k") || "none", db];
          const show = (db) => document.body.append("STA" + "TE:" + values(db).join("|") + ":E" + "ND");
          idb("read").then((value) => show(value || "none"), () => show("error"));`);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  });
  return listenOnLoopback(server);
}
let site: LoopbackServer;
const created: Array<{ id: string; target: Target }> = [];
const session = async (body: Record<string, unknown>, target: Target = {}) => {
  const s = await createSession(body, target);
  created.push({ id: s.id, target });
  return s;
};
const run = Date.now().toString(36);
const named = (base: string) => `${base}-${run}`;

async function setState(id: string, value: string, target: Target = {}) {
  await execute(id, { type: "go_to_url", url: `${site.url}/set?v=${value}` }, target);
  await waitFor(
    "state set",
    () => html(id, target),
    (h) => h.includes("SET-DONE"),
  );
}

/** kept-cookie|session-cookie|localStorage|IndexedDB as the page sees them ("none" when absent). */
async function readState(id: string, target: Target = {}): Promise<string> {
  await execute(id, { type: "go_to_url", url: `${site.url}/read` }, target);
  const text = await waitFor(
    "state read",
    () => html(id, target),
    (h) => h.includes(":END"),
  );
  return /STATE:(.*?):END/.exec(text)![1];
}

/** DELETE: answered once the row is terminated; a later start or read of the profile waits for its last save. */
async function endSession(id: string, target: Target = {}) {
  expect((await api("DELETE", `/computers/${id}`, undefined, target)).status).toBe(204);
}

beforeAll(async () => {
  site = await startProfileSite();
});

afterAll(async () => {
  // The agent world's sessions ended with its server.
  const ours = created.filter((s) => !s.target.base);
  await Promise.all(ours.map((s) => api("DELETE", `/computers/${s.id}`, undefined, s.target)));
  await site?.close();
  await closeDbs();
});

describe("profiles", () => {
  it("carry cookies (session cookies too), local storage and IndexedDB from one session to a later one", async () => {
    const name = named("acme");
    const unknown = await api("POST", "/computers", { profile: { name } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: "not_found", param: "profile.name" });
    expect(unknown.body.error.message).toContain(name);

    const writer = await session({ profile: { name, save_changes: true } });
    expect(await readState(writer.id)).toBe("none|none|none|none");
    await setState(writer.id, "one");
    const held = await api("GET", `/profiles/${name}`);
    expect(held.body).toMatchObject({ name, in_use_by: writer.id });
    await endSession(writer.id);

    const reader = await session({ profile: { name } });
    expect(await readState(reader.id)).toBe("one|one|one|one");
    // A reader's changes are not saved.
    await setState(reader.id, "changed");
    await endSession(reader.id);
    const again = await session({ profile: { name } });
    expect(await readState(again.id)).toBe("one|one|one|one");
    await endSession(again.id);

    // The next writer starts from it and saves over it.
    const second = await session({ profile: { name, save_changes: true } });
    expect(await readState(second.id)).toBe("one|one|one|one");
    await setState(second.id, "two");
    await endSession(second.id);
    const last = await session({ profile: { name } });
    expect(await readState(last.id)).toBe("two|two|two|two");
    await endSession(last.id);
  });

  it("one writer at a time: a second writer gets 409 naming the holder, readers start beside it", async () => {
    const name = named("shared");
    const first = await session({ profile: { name, save_changes: true } });
    await setState(first.id, "first");

    const refused = await api("POST", "/computers", { profile: { name, save_changes: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "conflict", param: "profile.name" });
    expect(refused.body.error.message).toContain(first.id);

    const [r1, r2] = await Promise.all([session({ profile: { name } }), session({ profile: { name } })]);
    expect(r1.id).not.toBe(r2.id);

    const deleting = await api("DELETE", `/profiles/${name}`);
    expect(deleting.status).toBe(409);
    expect(deleting.body.error.message).toContain(first.id);

    // The hold ends with the session, and its last save is what the next writer starts from.
    await endSession(first.id);
    const next = await session({ profile: { name, save_changes: true } });
    expect(await readState(next.id)).toBe("first|first|first|first");
    expect((await api("GET", `/profiles/${name}`)).body.in_use_by).toBe(next.id);
    await Promise.all([endSession(next.id), endSession(r1.id), endSession(r2.id)]);
    expect((await api("GET", `/profiles/${name}`)).body.in_use_by).toBeNull();
  });

  it("a holder whose row was marked crashed (its node died) no longer holds the profile", async () => {
    const name = named("orphan");
    const stuck = await session({ profile: { name, save_changes: true }, inactivity_timeout_seconds: 5 });
    // What a surviving node does to the sessions of a node whose lease expired.
    await db().computer.update({
      where: { id: stuck.id },
      data: { status: "terminated", terminationReason: "crashed", terminatedAt: new Date() },
    });
    expect((await api("GET", `/profiles/${name}`)).body.in_use_by).toBeNull();
    const taker = await session({ profile: { name, save_changes: true } });
    expect((await api("GET", `/profiles/${name}`)).body.in_use_by).toBe(taker.id);
    await endSession(taker.id);
  });

  it("lists, reads and deletes profiles, each organization its own", async () => {
    const name = named("listed");
    const writer = await session({ profile: { name, save_changes: true } });
    await setState(writer.id, "listed");
    await endSession(writer.id);

    const one = await api("GET", `/profiles/${name}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      name,
      size_bytes: expect.any(Number),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_used_at: expect.any(String),
      in_use_by: null,
    });
    expect(one.body.size_bytes).toBeGreaterThan(0);
    const list = await api("GET", "/profiles");
    expect(list.status).toBe(200);
    expect(list.body.find((p: any) => p.name === name)).toEqual(one.body);

    const keyB = { key: inject("apiKeyB") };
    expect((await api("GET", `/profiles/${name}`, undefined, keyB)).status).toBe(404);
    expect((await api("GET", "/profiles", undefined, keyB)).body.some((p: any) => p.name === name)).toBe(false);
    expect((await api("POST", "/computers", { profile: { name } }, keyB)).status).toBe(404);
    expect((await api("DELETE", `/profiles/${name}`, undefined, keyB)).status).toBe(404);

    expect((await api("DELETE", `/profiles/${name}`)).status).toBe(204);
    expect((await api("GET", `/profiles/${name}`)).status).toBe(404);
    expect((await api("DELETE", `/profiles/${name}`)).status).toBe(404);
    expect((await api("GET", "/profiles")).body.some((p: any) => p.name === name)).toBe(false);
  });

  it("refuses bad names, desktop sessions and profile with environment_id, naming the field", async () => {
    for (const bad of ["bad name", "a".repeat(65), "..", "-lead", "x/y"]) {
      const res = await api("POST", "/computers", { profile: { name: bad, save_changes: true } });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.param, bad).toBe("profile.name");
    }
    const get = await api("GET", `/profiles/${encodeURIComponent("bad name")}`);
    expect(get.status).toBe(400);
    expect(get.body.error.param).toBe("name");
    const extra = await api("POST", "/computers", { profile: { name: "ok", save: true } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.param).toBe("profile.save");
    const desktop = await api("POST", "/computers", { kind: "desktop", profile: { name: "ok" } });
    expect(desktop.status).toBe(400);
    expect(desktop.body.error.param).toBe("profile");
    const both = await api("POST", "/computers", { profile: { name: "ok" }, environment_id: "comp_x" });
    expect(both.status).toBe(400);
    expect(both.body.error.param).toBe("profile");
    // Nothing was made by the refusals.
    expect((await api("GET", "/profiles/ok")).status).toBe(404);
  });

  it("expires a profile unused for PROFILE_RETENTION_DAYS", async () => {
    const name = named("old");
    const writer = await session({ profile: { name, save_changes: true } });
    await endSession(writer.id);
    expect((await api("GET", `/profiles/${name}`)).status).toBe(200);
    const long = new Date(Date.now() - 91 * 86_400_000);
    await db().profile.updateMany({ where: { name }, data: { lastUsedAt: long } });
    expect((await api("GET", `/profiles/${name}`)).status).toBe(404);
    expect(await db().profile.count({ where: { name } })).toBe(0);
  });
});

describe("a task with a profile", () => {
  let world: AgentWorld;
  beforeAll(async () => {
    world = await startAgentWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it("starts from the profile and, with save_changes, saves into it when it ends", async () => {
    const target = { base: world.server.url, key: world.key };
    const name = named("task");
    const seeded = await session({ profile: { name, save_changes: true } }, target);
    await setState(seeded.id, "seed", target);
    await endSession(seeded.id, target);

    // The model looks once before it is done: the start page's IndexedDB write lands before the end's save.
    world.upstream.setScript([{ action: { type: "wait" } }, { done: { result: "looked" } }]);
    const started = await agentCall(world, world.key, "POST", "/agent/tasks", {
      instruction: "Look at the page",
      model: SCRIPTED_MODEL,
      kind: "browser",
      start_url: `${site.url}/set?v=bytask`,
      profile: { name, save_changes: true },
    });
    expect(started.status).toBe(201);
    const task = await waitForTask(world, world.key, started.body.task_id, ended);
    expect(task.status).toBe("completed");
    // The task's session ended with it and saved what its start page set.
    const after = await session({ profile: { name } }, target);
    expect(await readState(after.id, target)).toBe("bytask|bytask|bytask|bytask");

    // A reading task's session starts from the profile: its start page shows the saved state.
    world.upstream.setScript([{ done: { result: "read" } }]);
    const reading = await agentCall(world, world.key, "POST", "/agent/tasks", {
      instruction: "Read the page",
      model: SCRIPTED_MODEL,
      kind: "browser",
      start_url: `${site.url}/read`,
      keep_alive: true,
      profile: { name },
    });
    expect(reading.status).toBe(201);
    created.push({ id: reading.body.computer_id, target });
    expect((await waitForTask(world, world.key, reading.body.task_id, ended)).status).toBe("completed");
    const shown = await waitFor(
      "state shown",
      () => html(reading.body.computer_id, target),
      (h) => h.includes(":END"),
    );
    expect(/STATE:(.*?):END/.exec(shown)![1]).toBe("bytask|bytask|bytask|bytask");

    const bad = await agentCall(world, world.key, "POST", "/agent/tasks", {
      instruction: "x",
      kind: "browser",
      model: SCRIPTED_MODEL,
      profile: { name: "no such/name" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("profile.name");
  }, 120_000);
});
