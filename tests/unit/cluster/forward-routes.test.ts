// @needs nothing
// The one declaration of which session or task a route addresses (lib/cluster/forward-path.ts): by path for
// the forwarder in front of Next, by body for the handlers that read one (`forwardByBody`).
import { describe, expect, it } from "vitest";
import { sessionIdOfBody, sessionIdOfPath, taskIdOfPath } from "@/lib/cluster/forward-path";

const id = `comp_${"a".repeat(24)}`;
const task = `task_${"b".repeat(24)}`;

describe("addressed routes", () => {
  it("reads a session or a task from the path declarations only", () => {
    expect(sessionIdOfPath(`/computers/${id}/files/x`)).toEqual({ id, surface: "computers" });
    expect(sessionIdOfPath(`/api/tasks/${id}`)).toBeNull();
    expect(taskIdOfPath(`/api/sessions/${task}`)).toBeNull();
    expect(taskIdOfPath(`/api/tasks/${task}/messages`)).toEqual({ id: task, surface: "dashboard" });
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
