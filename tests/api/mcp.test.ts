// @needs server light chromium
// The MCP server through the SDK's own client over Streamable HTTP, against a
// running server with a real Chromium: it lists the tools, creates a session,
// navigates, gets a screenshot as an image, runs an agent task (with progress
// notifications) on the scripted upstream; a bad key is refused, another
// organization's session is not found, bad tool input is a tool error.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLICK_TYPE_ENTER, SCRIPTED_MODEL, startAgentWorld, type AgentWorld } from "./agent-fixtures";

let world: AgentWorld;
const clients: Client[] = [];

beforeAll(async () => {
  world = await startAgentWorld();
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await world?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "cabin-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${world.server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: any) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("");

describe("MCP server", () => {
  it("lists the tools, creates a session, navigates, returns a screenshot image, ends the session", async () => {
    const client = await connect(world.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "click",
      "create_session",
      "end_session",
      "exec",
      "fill_credentials",
      "get_replay",
      "key_press",
      "list_files",
      "list_sessions",
      "navigate",
      "read_file",
      "run_agent_task",
      "screenshot",
      "scroll",
      "tabs",
      "type_text",
      "upload_file",
    ]);
    expect(tools.find((t) => t.name === "navigate")!.inputSchema.required).toEqual(["session_id", "url"]);
    // create_session advertises the display limits POST /computers applies (its own schema), not looser ones.
    const display = tools.find((t) => t.name === "create_session")!.inputSchema.properties as Record<string, any>;
    expect([display.width.minimum, display.width.maximum]).toEqual([320, 3840]);
    expect([display.height.minimum, display.height.maximum]).toEqual([240, 2160]);
    const tooNarrow = await client.callTool({ name: "create_session", arguments: { width: 300 } });
    expect(tooNarrow.isError).toBe(true);

    const created = await client.callTool({ name: "create_session", arguments: { kind: "browser" } });
    expect(created.isError).toBeFalsy();
    const session = JSON.parse(textOf(created));
    expect(session).toMatchObject({ kind: "browser", status: "ready" });

    const navigated = await client.callTool({
      name: "navigate",
      arguments: { session_id: session.id, url: `${world.page.url}/` },
    });
    expect(navigated.isError).toBeFalsy();
    expect(JSON.parse(textOf(navigated)).page_context.title).toBe("Agent target");

    const shot = await client.callTool({ name: "screenshot", arguments: { session_id: session.id } });
    const image = (shot.content as any[])[0];
    expect(image.type).toBe("image");
    expect(image.mimeType).toMatch(/^image\/(png|jpeg)$/);
    const bytes = Buffer.from(image.data, "base64");
    expect(bytes.length).toBeGreaterThan(1000);

    const clicked = await client.callTool({ name: "click", arguments: { session_id: session.id, x: 650, y: 325 } });
    expect(clicked.isError).toBeFalsy();
    await expect.poll(() => world.page.records.at(-1), { timeout: 10_000 }).toEqual({ type: "click", x: 650, y: 325 });

    const listed = JSON.parse(textOf(await client.callTool({ name: "list_sessions", arguments: {} })));
    expect(listed.map((s: any) => s.id)).toContain(session.id);
    const tabs = JSON.parse(
      textOf(await client.callTool({ name: "tabs", arguments: { session_id: session.id, action: "list" } })),
    );
    expect(tabs.result.tabs[0]).toMatchObject({ tab_id: "tab_main", is_main: true });
    // The typed tab and exec commands: a new tab opens on its url; exec is a desktop's, refused on a browser.
    const newTab = { session_id: session.id, action: "new", url: `${world.page.url}/` };
    const opened = JSON.parse(textOf(await client.callTool({ name: "tabs", arguments: newTab })));
    expect(opened.result.created_tab_id).toMatch(/^tab_[0-9a-f]+$/);
    for (const [name, args] of [
      ["scroll", { dy: 120 }],
      ["key_press", { keys: ["End"] }],
      ["type_text", { text: "typed" }],
    ] as const) {
      const acted = await client.callTool({ name, arguments: { session_id: session.id, ...args } });
      expect(acted.isError, `${name}: ${textOf(acted)}`).toBeFalsy();
    }
    const exec = await client.callTool({ name: "exec", arguments: { session_id: session.id, command: "true" } });
    expect(exec.isError).toBe(true);
    expect(textOf(exec)).toMatch(/^invalid_request: exec is for desktop sessions/);

    // Another organization's client: the session is not found, as on /computers.
    const other = await connect(world.keyB);
    const foreign = await other.callTool({ name: "screenshot", arguments: { session_id: session.id } });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/not_found/);

    const ended = await client.callTool({ name: "end_session", arguments: { session_id: session.id } });
    expect(JSON.parse(textOf(ended))).toEqual({ session_id: session.id, status: "terminated" });
  }, 60_000);

  it("runs an agent task with progress notifications and answers its result", async () => {
    world.upstream.setScript(CLICK_TYPE_ENTER);
    const before = world.page.records.length;
    const client = await connect(world.key);
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool(
      {
        name: "run_agent_task",
        arguments: {
          instruction: "Click Go, type and submit",
          kind: "browser",
          model: SCRIPTED_MODEL,
          start_url: `${world.page.url}/`,
          max_steps: 6,
        },
      },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: 60_000 },
    );
    expect(result.isError).toBeFalsy();
    const task = JSON.parse(textOf(result));
    expect(task).toMatchObject({ status: "completed", end_reason: "done", result: "typed hello agent", step_count: 4 });
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    // The task's replay link, through get_replay (by task and by session).
    expect(task.replay_id).toMatch(/^rep_/);
    const byTask = JSON.parse(
      textOf(await client.callTool({ name: "get_replay", arguments: { task_id: task.task_id } })),
    );
    expect(byTask).toMatchObject({ task_id: task.task_id, replay_id: task.replay_id });
    expect(byTask.data).toHaveLength(1);
    expect(byTask.data[0].replay_view_url).toBe(
      `${world.server.url}/computers/${task.computer_id}/replays/${task.replay_id}`,
    );
    const bySession = JSON.parse(
      textOf(await client.callTool({ name: "get_replay", arguments: { session_id: task.computer_id } })),
    );
    expect(bySession.data.map((r: any) => r.replay_id)).toEqual([task.replay_id]);
    const neither = await client.callTool({ name: "get_replay", arguments: {} });
    expect(neither.isError).toBe(true);
    expect(progress[0]!.message).toMatch(/click/);
    // The page reports its submit with a request of its own, which may land just after the task's end.
    await expect
      .poll(() => world.page.records.slice(before), { timeout: 10_000 })
      .toEqual([
        { type: "click", x: 650, y: 325 },
        { type: "submit", text: "hello agent" },
      ]);
  }, 60_000);

  it("passes a task's vault credentials on: an unknown name is the start's refusal, before any session", async () => {
    const client = await connect(world.key);
    const sessions = async () =>
      (
        (await (
          await fetch(`${world.server.url}/computers`, { headers: { authorization: `Bearer ${world.key}` } })
        ).json()) as unknown[]
      ).length;
    const sessionsBefore = await sessions();
    const refused = await client.callTool({
      name: "run_agent_task",
      arguments: { instruction: "Log in", kind: "browser", model: SCRIPTED_MODEL, credentials: ["no-such-login"] },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("no-such-login");
    expect(await sessions()).toBe(sessionsBefore);
  });

  it("uploads a file to a session from base64 and reads it back; bad names and content are tool errors", async () => {
    const client = await connect(world.key);
    const session = JSON.parse(textOf(await client.callTool({ name: "create_session", arguments: {} })));
    const bytes = Buffer.from("a file an agent gave the session \u00e9");
    const uploaded = await client.callTool({
      name: "upload_file",
      arguments: { session_id: session.id, name: "notes.txt", content_base64: bytes.toString("base64") },
    });
    expect(uploaded.isError, textOf(uploaded)).toBeFalsy();
    const file = JSON.parse(textOf(uploaded));
    expect(file).toMatchObject({ name: "notes.txt", size: bytes.length, source: "upload", mime_type: "text/plain" });
    const listed = JSON.parse(
      textOf(await client.callTool({ name: "list_files", arguments: { session_id: session.id } })),
    );
    expect(listed.data.map((f: any) => f.id)).toEqual([file.id]);
    const read = await client.callTool({ name: "read_file", arguments: { session_id: session.id, file_id: file.id } });
    expect(Buffer.from(JSON.parse(textOf(read)).content_base64, "base64").equals(bytes)).toBe(true);
    const badName = await client.callTool({
      name: "upload_file",
      arguments: { session_id: session.id, name: "../x", content_base64: "eA==" },
    });
    expect(badName.isError).toBe(true);
    expect(textOf(badName)).toMatch(/invalid_request/);
    const notBase64 = await client.callTool({
      name: "upload_file",
      arguments: { session_id: session.id, name: "x.txt", content_base64: "not base64!" },
    });
    expect(notBase64.isError).toBe(true);
    await client.callTool({ name: "end_session", arguments: { session_id: session.id } });
  });

  it("bad tool input and unknown sessions are tool errors, not crashes", async () => {
    const client = await connect(world.key);
    const bad = await client.callTool({ name: "click", arguments: { session_id: "comp_x", x: "left" } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/x/);
    const missing = await client.callTool({
      name: "navigate",
      arguments: { session_id: "comp_000000000000000000000000", url: "http://127.0.0.1:9/" },
    });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/not_found/);
  });

  it("refuses a bad key with a 401 before any MCP message", async () => {
    const res = await fetch(`${world.server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: "Bearer sk-not-a-key",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBeDefined();
    await expect(connect("sk-not-a-key")).rejects.toThrow();
  });
});
