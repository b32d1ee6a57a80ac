// @needs nothing
// The one declaration of which session or task a route addresses (lib/cluster/forward-path.ts): by path for
// the one forwarder in front of Next, which reads a body-addressed route's body itself (`bodySessionOf`).
import { describe, expect, it } from "vitest";
import { bodyRouteOf, bodySessionOf, sessionIdOfPath, taskIdOfPath } from "@/lib/cluster/forward-path";

const id = `comp_${"a".repeat(24)}`;
const task = `task_${"b".repeat(24)}`;

describe("addressed routes", () => {
  it("reads a session or a task from the path declarations only", () => {
    expect(sessionIdOfPath(`/computers/${id}/files/x`)).toEqual({ id, surface: "computers" });
    expect(sessionIdOfPath(`/api/tasks/${id}`)).toBeNull();
    expect(taskIdOfPath(`/api/sessions/${task}`)).toBeNull();
    expect(taskIdOfPath(`/api/tasks/${task}/messages`)).toEqual({ id: task, surface: "dashboard" });
  });

  const LIMIT = 1024;
  /** The session a body names on a route, as the forwarder reads the bytes; null when the route is not one. */
  function sessionIdOfBody(method: string, url: string, body: unknown): string | null {
    const route = bodyRouteOf(method, url);
    return route && bodySessionOf(route, Buffer.from(JSON.stringify(body)), LIMIT);
  }

  it("matches the body-addressed routes by method and path, the query aside, with their surface", () => {
    expect(bodyRouteOf("POST", "/mcp?x=1")?.surface).toBe("computers");
    expect(bodyRouteOf("POST", "/api/tasks")?.surface).toBe("dashboard");
    expect(bodyRouteOf("POST", "/agent/tasks/stream")?.path).toBe("/agent/tasks/stream");
    expect(bodyRouteOf("GET", "/mcp")).toBeNull();
    expect(bodyRouteOf("POST", `/agent/tasks/${task}/messages`)).toBeNull();
    expect(bodyRouteOf(undefined, "/mcp")).toBeNull();
  });

  it("names no session for bytes past the limit, bytes that are not JSON, or an id that is not a session's", () => {
    const route = bodyRouteOf("POST", "/agent/tasks")!;
    const bytes = Buffer.from(JSON.stringify({ computer_id: id, pad: "x".repeat(LIMIT) }));
    expect(bodySessionOf(route, bytes, bytes.length)).toBe(id);
    expect(bodySessionOf(route, bytes, bytes.length - 1)).toBeNull();
    expect(bodySessionOf(route, Buffer.from(`{"computer_id":"${id}"`), LIMIT)).toBeNull();
    expect(bodySessionOf(route, Buffer.from(""), LIMIT)).toBeNull();
    expect(bodySessionOf(route, Buffer.from(JSON.stringify({ computer_id: "comp_x/../y" })), LIMIT)).toBeNull();
  });

  it("reads the session a body-addressed route's body names, and nothing on other routes", () => {
    expect(sessionIdOfBody("POST", "/agent/tasks", { instruction: "x", computer_id: id })).toBe(id);
    expect(sessionIdOfBody("POST", "/agent/tasks/stream", { computer_id: id })).toBe(id);
    expect(sessionIdOfBody("POST", "/api/tasks", { computer_id: id })).toBe(id);
    expect(sessionIdOfBody("POST", "/agent/tasks", { instruction: "x" })).toBeNull();
    expect(sessionIdOfBody("POST", "/agent/tasks", { computer_id: 7 })).toBeNull();
    expect(sessionIdOfBody("GET", "/agent/tasks", { computer_id: id })).toBeNull();
    expect(sessionIdOfBody("POST", "/computers", { computer_id: id })).toBeNull();
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "click", arguments: { session_id: id } },
    };
    expect(sessionIdOfBody("POST", "/mcp", call)).toBe(id);
    expect(sessionIdOfBody("POST", "/mcp", { ...call, method: "tools/list" })).toBeNull();
    expect(sessionIdOfBody("POST", "/mcp", [call])).toBeNull();
    expect(sessionIdOfBody("POST", "/mcp", null)).toBeNull();
  });
});
