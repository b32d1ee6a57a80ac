// @needs server light
// /v1/responses on the local placeholder model of the shared server: it accepts images it
// cannot see, its computer calls land on the display, and a bad tool is refused naming it.
import { describe, expect, inject, it } from "vitest";
import { CUA, openai } from "./models-helpers";
import { computerTool } from "./responses-scripted-model";

describe("/v1/responses on the local placeholder model (the shared server)", () => {
  // Also: a computer-use loop runs on a fresh install.
  it("accepts an image it cannot see (capabilities.image_inputs 'ignored')", async () => {
    const input = [
      {
        role: "user" as const,
        content: [
          { type: "input_text" as const, text: "see" },
          { type: "input_image" as const, image_url: "data:image/png;base64,AAAA", detail: "auto" as const },
        ],
      },
    ];
    const res = await openai().responses.create({ model: CUA, input, max_output_tokens: 4 });
    expect(res.status).toBe("incomplete");
    expect(res.usage!.output_tokens).toBe(4);
    const info = await openai().models.retrieve(CUA);
    expect(info).toMatchObject({ capabilities: { vision: false, image_inputs: "ignored" } });
  });

  it("produces a valid computer_call with coordinates on the display", async () => {
    // No output limit but the context: the grammar bounds every call (strings 48 characters, arrays 4 items,
    // integers 16 digits), so it always ends. A limit of 120 tokens once cut a drag mid-path (CI, 2026-11-27).
    const res = await openai().responses.create({
      model: CUA,
      input: "Click somewhere",
      tools: [computerTool],
      tool_choice: "required",
    });
    expect(res.status).toBe("completed");
    const call = res.output.find((item) => item.type === "computer_call");
    expect(call, JSON.stringify(res.output)).toBeDefined();
    const action = (call as { action: Record<string, any> }).action;
    expect(["click", "double_click", "drag", "keypress", "move", "screenshot", "scroll", "type", "wait"]).toContain(
      action.type,
    );
    for (const [x, y] of "x" in action ? [[action.x, action.y]] : (action.path ?? []).map((p: any) => [p.x, p.y])) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1280);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThan(720);
    }
  });

  it("refuses bad input naming the parameter", async () => {
    const res = await fetch(`${inject("baseUrl")}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${inject("apiKey")}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: CUA,
        input: "x",
        tools: [{ type: "computer_use_preview", display_height: 10 }],
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      type: "invalid_request_error",
      param: expect.stringContaining("tools"),
    });
  });
});
