// Pure parts of /v1/responses: input items to chat turns, and computer-call
// arguments to actions bounded by the display.
import { describe, expect, it } from "vitest";
import { computerAction } from "@/lib/models/responses/output";
import { toChatMessages } from "@/lib/models/responses/to-chat";

describe("toChatMessages", () => {
  it("joins calls to one assistant turn and puts screenshots after the run of tool results", () => {
    const shot = "data:image/png;base64,AAAA";
    const messages = toChatMessages("sys", [
      { type: "message", role: "user", content: [{ type: "input_text", text: "go" }, { type: "input_image", image_url: shot }] },
      { type: "computer_call", call_id: "c1", action: { type: "screenshot" } },
      { type: "function_call", call_id: "c2", name: "f", arguments: "{}" },
      { type: "computer_call_output", call_id: "c1", output: { type: "computer_screenshot", image_url: shot } },
      { type: "function_call_output", call_id: "c2", output: "ok" },
    ]);
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
    expect(messages[1]!.content).toEqual([{ type: "text", text: "go" }, { type: "image_url", image_url: { url: shot } }]);
    expect((messages[2] as { tool_calls: unknown[] }).tool_calls).toEqual([
      { id: "c1", type: "function", function: { name: "computer", arguments: '{"type":"screenshot"}' } },
      { id: "c2", type: "function", function: { name: "f", arguments: "{}" } },
    ]);
    expect((messages[5]!.content as { type: string }[])[1]).toEqual({ type: "image_url", image_url: { url: shot } });
  });
});

describe("computerAction", () => {
  const display = { width: 100, height: 50 };
  it("clamps coordinates to the display and fills defaults", () => {
    expect(computerAction('{"type":"click","x":150.4,"y":-3}', display)).toEqual({ type: "click", x: 99, y: 0, button: "left" });
    expect(computerAction('{"type":"drag","path":[{"x":1,"y":2},{"x":200,"y":60}]}', display)).toEqual({ type: "drag", path: [{ x: 1, y: 2 }, { x: 99, y: 49 }] });
    expect(computerAction('{"type":"wait"}', display)).toEqual({ type: "wait" });
  });
  it("is null for arguments that are no action", () => {
    expect(computerAction("not json", display)).toBeNull();
    expect(computerAction('{"type":"fly"}', display)).toBeNull();
    expect(computerAction('{"type":"click","x":"a","y":1}', display)).toBeNull();
  });
});

describe("the /v1/responses routes", () => {
  it("tells cancel apart from the id route, and answers 405 for other methods on it", async () => {
    const { resolveModelRoute } = await import("@/lib/models/route-table");
    const { cancelResponseRoute, getResponseRoute } = await import("@/lib/models/responses/routes");
    expect(resolveModelRoute("POST", "/v1/responses/resp_1/cancel")).toEqual({ handler: cancelResponseRoute, params: { id: "resp_1" } });
    expect(resolveModelRoute("GET", "/v1/responses/resp_1")).toEqual({ handler: getResponseRoute, params: { id: "resp_1" } });
    expect(resolveModelRoute("GET", "/v1/responses/resp_1/cancel")!.handler).not.toBe(cancelResponseRoute);
    expect(resolveModelRoute("GET", "/v1/responses/resp_1/cancel")!.params).toEqual({ id: "resp_1" });
    expect(resolveModelRoute("GET", "/v1/responses//cancel")!.params).toEqual({ id: "/cancel" });
  });
});
