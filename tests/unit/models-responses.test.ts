// @needs nothing
// Pure parts of /v1/responses: input items to chat turns, and computer-call
// arguments to actions bounded by the display.
import { describe, expect, it } from "vitest";
import { actionSpaceOf, describeActionSpace } from "@/lib/models/responses/action-space";
import { computerAction } from "@/lib/models/responses/output";
import { responsesCreateSchema } from "@/lib/models/responses/schema";
import { toChatMessages } from "@/lib/models/responses/to-chat";

describe("toChatMessages", () => {
  it("joins calls to one assistant turn and puts screenshots after the run of tool results", () => {
    const shot = "data:image/png;base64,AAAA";
    const messages = toChatMessages("sys", [
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "go" },
          { type: "input_image", image_url: shot },
        ],
      },
      { type: "computer_call", call_id: "c1", action: { type: "screenshot" } },
      { type: "function_call", call_id: "c2", name: "f", arguments: "{}" },
      { type: "computer_call_output", call_id: "c1", output: { type: "computer_screenshot", image_url: shot } },
      { type: "function_call_output", call_id: "c2", output: "ok" },
    ]);
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
    expect(messages[1]!.content).toEqual([
      { type: "text", text: "go" },
      { type: "image_url", image_url: { url: shot } },
    ]);
    expect((messages[2] as { tool_calls: unknown[] }).tool_calls).toEqual([
      { id: "c1", type: "function", function: { name: "computer", arguments: '{"type":"screenshot"}' } },
      { id: "c2", type: "function", function: { name: "f", arguments: "{}" } },
    ]);
    expect((messages[5]!.content as { type: string }[])[1]).toEqual({ type: "image_url", image_url: { url: shot } });
  });
});

describe("computerAction", () => {
  const display = actionSpaceOf({ type: "computer_use_preview", display_width: 100, display_height: 50 });
  it("clamps coordinates to the display and fills defaults", () => {
    expect(computerAction('{"type":"click","x":150.4,"y":-3}', display)).toEqual({
      type: "click",
      x: 99,
      y: 0,
      button: "left",
    });
    expect(computerAction('{"type":"drag","path":[{"x":1,"y":2},{"x":200,"y":60}]}', display)).toEqual({
      type: "drag",
      path: [
        { x: 1, y: 2 },
        { x: 99, y: 49 },
      ],
    });
    expect(computerAction('{"type":"wait"}', display)).toEqual({ type: "wait" });
  });
  it("is null for arguments that are no action", () => {
    expect(computerAction("not json", display)).toBeNull();
    expect(computerAction('{"type":"fly"}', display)).toBeNull();
    expect(computerAction('{"type":"click","x":"a","y":1}', display)).toBeNull();
  });
});

describe("the coordinate space of the computer tools", () => {
  it("computer_use answers in 0-1000 on both axes, computer_use_preview in pixels", () => {
    const lightcone = actionSpaceOf({ type: "computer_use", display_width: 1280, display_height: 720 });
    expect(lightcone).toMatchObject({ maxX: 1000, maxY: 1000, normalized: true });
    expect(computerAction('{"type":"click","x":1200,"y":999.6}', lightcone)).toEqual({
      type: "click",
      x: 1000,
      y: 1000,
      button: "left",
    });
    expect(computerAction('{"type":"move","x":640,"y":700}', lightcone)).toEqual({ type: "move", x: 640, y: 700 });
    const openai = actionSpaceOf({ type: "computer_use_preview", display_width: 1280, display_height: 720 });
    expect(openai).toMatchObject({ maxX: 1279, maxY: 719, normalized: false });
    expect(computerAction('{"type":"move","x":1500,"y":700}', openai)).toEqual({ type: "move", x: 1279, y: 700 });
  });
  it("tells the model which space it answers in", () => {
    expect(
      describeActionSpace(actionSpaceOf({ type: "computer_use", display_width: 1280, display_height: 720 }), "desktop"),
    ).toBe(
      "Act on a desktop screen of 1280x720 pixels. x and y are 0-1000 on both axes: 0,0 is the top left, 1000,1000 " +
        "the bottom right.",
    );
    expect(
      describeActionSpace(
        actionSpaceOf({ type: "computer_use_preview", display_width: 1280, display_height: 720 }),
        "browser",
      ),
    ).toBe("Act on a browser screen of 1280x720 pixels. x and y are pixels: x 0-1279, y 0-719.");
  });
});

describe("environment and computer_call_output parsing", () => {
  const request = (environment: string) => ({
    model: "m",
    input: "go",
    tools: [{ type: "computer_use", display_width: 1280, display_height: 720, environment }],
  });
  it("accepts every environment the public SDKs send, and names them all when one is wrong", () => {
    for (const environment of ["desktop", "browser", "linux", "mac", "windows", "ubuntu"])
      expect(responsesCreateSchema.safeParse(request(environment)).success).toBe(true);
    const bad = responsesCreateSchema.safeParse(request("amiga"));
    expect(bad.error!.issues[0]!.message).toBe(
      "environment must be one of browser, desktop, linux, ubuntu, mac, windows",
    );
  });
  // Also: replays SDK actions.
  it("takes a screenshot output as computer_screenshot (OpenAI) or input_image (the Lightcone examples)", () => {
    const shot = "data:image/png;base64,AAAA";
    const input = [
      {
        type: "computer_call",
        call_id: "c1",
        action: { type: "point_and_type", x: 1, y: 2, text: "a" },
        id: "cu_1",
        status: "completed",
        pending_safety_checks: [],
      },
      { type: "computer_call_output", call_id: "c1", output: { type: "input_image", image_url: shot, detail: "auto" } },
      { type: "computer_call", call_id: "c2", action: { type: "key_down", keys: ["shift"] } },
      { type: "computer_call_output", call_id: "c2", output: { type: "computer_screenshot", image_url: shot } },
    ];
    expect(responsesCreateSchema.safeParse({ model: "m", input }).success).toBe(true);
    const wrong = responsesCreateSchema.safeParse({
      model: "m",
      input: [{ ...input[1], output: { type: "text", image_url: shot } }],
    });
    expect(JSON.stringify(wrong.error!.issues)).toContain("output.type must be computer_screenshot or input_image");
  });
});

describe("the /v1/responses routes", () => {
  it("tells cancel apart from the id route, and answers 405 for other methods on it", async () => {
    const { resolveModelRoute } = await import("@/lib/models/gateway/route-table");
    const { cancelResponseRoute, getResponseRoute } = await import("@/lib/models/responses/routes");
    expect(resolveModelRoute("POST", "/v1/responses/resp_1/cancel")).toEqual({
      handler: cancelResponseRoute,
      params: { id: "resp_1" },
    });
    expect(resolveModelRoute("GET", "/v1/responses/resp_1")).toEqual({
      handler: getResponseRoute,
      params: { id: "resp_1" },
    });
    expect(resolveModelRoute("GET", "/v1/responses/resp_1/cancel")!.handler).not.toBe(cancelResponseRoute);
    expect(resolveModelRoute("GET", "/v1/responses/resp_1/cancel")!.params).toEqual({ id: "resp_1" });
    expect(resolveModelRoute("GET", "/v1/responses//cancel")!.params).toEqual({ id: "/cancel" });
  });
});
