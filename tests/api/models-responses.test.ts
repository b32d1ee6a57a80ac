// @needs server light postgres chromium
// /v1/responses with the official client's `responses.create`, translated to
// chat completions for a scripted OpenAI-wire upstream on 127.0.0.1 (which
// records what it is sent; tests/api/responses-scripted-model.ts): text,
// `previous_response_id` chaining and its organization scope, and a computer-use
// round trip on a real browser session. Streams: models-responses-stream.test.ts;
// the local placeholder model's answers: models-responses-local.test.ts.
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, execute, html, startSite, type Site, type Target } from "./computers-fixtures";
import { createOrgKey, type TestServer } from "./harness";
import { closeDbs, openai, usageRow } from "./models-helpers";
import { CLICK, computerTool, received, startScriptedGateway } from "./responses-scripted-model";
import { waitFor } from "./wait-for";

let gateway: TestServer;
let upstream: Server;
let site: Site;
let key: string;
let target: Target;
beforeAll(async () => {
  ({ gateway, upstream } = await startScriptedGateway());
  key = await createOrgKey(gateway, "Responses Org");
  target = { base: gateway.url, key };
  site = await startSite();
});

afterAll(async () => {
  await closeDbs();
  await site?.close();
  await gateway?.destroy();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
});

describe("/v1/responses over a chat upstream", () => {
  it("answers text with instructions as the system turn, and meters it as `responses`", async () => {
    const { data, response } = await openai(gateway.url, key)
      .responses.create({ model: "up.agent", input: "Hello", instructions: "Be brief", max_output_tokens: 50 })
      .withResponse();
    expect(data).toMatchObject({
      object: "response",
      status: "completed",
      model: "up.agent",
      output_text: "plain answer",
    });
    expect(data.id).toMatch(/^resp_/);
    expect(data.output).toEqual([
      {
        type: "message",
        id: expect.stringMatching(/^msg_/),
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "plain answer", annotations: [] }],
      },
    ]);
    expect(data.usage).toMatchObject({ input_tokens: 17, output_tokens: 9, total_tokens: 26 });
    expect(received.at(-1)).toEqual({
      model: "scripted-1",
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: "Hello" },
      ],
      max_tokens: 50,
    });
    const row = await usageRow(response.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row).toMatchObject({
      endpoint: "responses",
      model: "up.agent",
      inputTokens: 17,
      outputTokens: 9,
      status: 200,
    });
    // The same cost header as the other endpoints, equal to the row's cost.
    expect(Number(response.headers.get("x-cabin-cost-usd"))).toBeCloseTo(Number(row.costUsd), 12);
  });

  it("chains previous_response_id within the organization, stores, reads back and refuses cancel", async () => {
    const client = openai(gateway.url, key);
    const first = await client.responses.create({
      model: "up.agent",
      input: [{ role: "user", content: "My name is Ada" }],
    });
    const second = await client.responses.create({
      model: "up.agent",
      input: "What is my name?",
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(received.at(-1)!.messages).toEqual([
      { role: "user", content: "My name is Ada" },
      { role: "assistant", content: "plain answer" },
      { role: "user", content: "What is my name?" },
    ]);
    const stored = await client.responses.retrieve(second.id);
    expect(stored).toMatchObject({ id: second.id, status: "completed", output: second.output });

    const cancel = await fetch(`${gateway.url}/v1/responses/${second.id}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(cancel.status).toBe(400);
    expect((await cancel.json()).error.message).toMatch(/background/);

    const stranger = openai(gateway.url, await createOrgKey(gateway, "Other Org"));
    await expect(stranger.responses.retrieve(second.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      stranger.responses.create({ model: "up.agent", input: "hi", previous_response_id: first.id }),
    ).rejects.toMatchObject({ status: 404, param: "previous_response_id" });

    const unstored = await client.responses.create({ model: "up.agent", input: "x", store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toMatchObject({ status: 404 });
  });

  it("round-trips a computer_call: executed on a real browser session, answered with its real screenshot", async () => {
    const client = openai(gateway.url, key);
    const session = await createSession({}, target);
    try {
      await execute(session.id, { type: "go_to_url", url: `${site.url}/form` }, target);
      const first = await client.responses.create({
        model: "up.agent",
        input: "Press the go button",
        tools: [computerTool],
        truncation: "auto",
      });
      const call = first.output.find((item) => item.type === "computer_call");
      expect(call).toMatchObject({
        type: "computer_call",
        call_id: "call_up_1",
        action: CLICK,
        pending_safety_checks: [],
        status: "completed",
      });
      const fn = received.at(-1)!.tools[0].function;
      expect(fn.name).toBe("computer");

      const clicked = await execute(
        session.id,
        call!.type === "computer_call" ? (call!.action as unknown as Record<string, unknown>) : {},
        target,
      );
      expect(clicked.status).toBe("success");
      await waitFor(() => html(session.id, target), {
        until: (h) => h.includes("CLICKED:"),
        timeoutMs: 10_000,
        message: "the click reached the page",
      });
      const shot = await execute(session.id, { type: "screenshot", base64: true }, target);
      const imageUrl = `data:${shot.result.mime_type};base64,${shot.result.screenshot}`;

      const second = await client.responses.create({
        model: "up.agent",
        previous_response_id: first.id,
        tools: [computerTool],
        input: [
          {
            type: "computer_call_output",
            call_id: call!.call_id,
            output: { type: "computer_screenshot", image_url: imageUrl },
          },
        ],
      });
      expect(second.output_text).toBe("I see the clicked page.");
      const messages = received.at(-1)!.messages;
      expect(messages.slice(0, 3)).toEqual([
        { role: "user", content: "Press the go button" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_up_1", type: "function", function: { name: "computer", arguments: JSON.stringify(CLICK) } },
          ],
        },
        { role: "tool", tool_call_id: "call_up_1", content: expect.any(String) },
      ]);
      const image = messages[3].content.find((p: any) => p.type === "image_url");
      expect(image.image_url.url).toBe(imageUrl);
    } finally {
      await fetch(`${gateway.url}/computers/${session.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${key}` },
      });
    }
  });
});
