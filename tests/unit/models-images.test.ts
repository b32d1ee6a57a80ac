// @needs nothing
// The pure parts of sending images to a model: the scale under maxImageEdge,
// the mapping of a model's pixel answers back to the caller's display (whole
// answers and streamed events), the fit of a PNG with sharp, the trimming of a
// local conversation to its context, and token estimates that never count an
// inline image's base64 as text.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fitImage } from "@/lib/models/images/fit-image";
import { imageScaleFor, requestImageScale, toCallerPoint } from "@/lib/models/images/image-scale";
import {
  DEFAULT_MAX_TOKENS,
  answerBudget,
  fitConversation,
  roomWanted,
  withoutOldestTurn,
} from "@/lib/models/local/context-fit";
import { mapNativeResponse, modelViewOf, NativeEventMapper } from "@/lib/models/responses/model-view";
import type { ResponsesCreateRequest } from "@/lib/models/responses/schema";
import { estimatePromptTokens } from "@/lib/models/upstream/estimate-tokens";
import { toMessages } from "@/lib/models/gateway/schemas";
import type { ChatMessage } from "@/lib/models/types";

describe("image scale", () => {
  it("scales the longest edge down to the bound and never up", () => {
    expect(imageScaleFor({ width: 1280, height: 720 }, 640)).toEqual({ width: 640, height: 360, factor: 0.5 });
    expect(imageScaleFor({ width: 720, height: 1280 }, 1024)).toEqual({ width: 576, height: 1024, factor: 0.8 });
    expect(imageScaleFor({ width: 800, height: 600 }, 1024)).toEqual({ width: 800, height: 600, factor: 1 });
    expect(requestImageScale({}, { width: 1280, height: 720 }).factor).toBe(1);
  });

  it("maps a model's point back to the caller's pixels, clamped to the display", () => {
    const scale = imageScaleFor({ width: 1280, height: 720 }, 640);
    expect(toCallerPoint({ x: 320, y: 180 }, scale, { width: 1280, height: 720 })).toEqual({ x: 640, y: 360 });
    expect(toCallerPoint({ x: 640, y: 360 }, scale, { width: 1280, height: 720 })).toEqual({ x: 1279, y: 719 });
  });
});

describe("the model's view of a Responses request", () => {
  const body = (type: "computer_use" | "computer_use_preview") =>
    ({
      model: "m",
      input: "go",
      tools: [{ type, display_width: 1280, display_height: 720, environment: "browser" }],
    }) as ResponsesCreateRequest;

  it("declares OpenAI's pixel tool at the scaled size and maps its points back", () => {
    const view = modelViewOf(body("computer_use_preview"), 640);
    expect(view.body.tools![0]).toMatchObject({ display_width: 640, display_height: 360 });
    expect(view.space).toMatchObject({ maxX: 639, maxY: 359, normalized: false });
    expect(view.space!.toCaller!({ x: 320, y: 180 })).toEqual({ x: 640, y: 360 });
    const answer = {
      output: [
        {
          type: "computer_call",
          action: {
            type: "drag",
            path: [
              { x: 0, y: 0 },
              { x: 320, y: 180 },
            ],
          },
        },
      ],
    };
    expect(mapNativeResponse(answer, view.scaling!).output[0]!.action.path).toEqual([
      { x: 0, y: 0 },
      { x: 640, y: 360 },
    ]);
  });

  it("leaves Lightcone's 0-1000 tool and unbounded models as they are", () => {
    const lightcone = body("computer_use");
    expect(modelViewOf(lightcone, 640)).toMatchObject({ body: lightcone, scaling: undefined });
    const preview = body("computer_use_preview");
    expect(modelViewOf(preview, undefined)).toMatchObject({ body: preview, scaling: undefined });
  });

  it("rewrites streamed events that carry computer calls, even split across chunks", () => {
    const view = modelViewOf(body("computer_use_preview"), 640);
    const mapper = new NativeEventMapper(view.scaling!);
    const item = { type: "computer_call", action: { type: "click", x: 320, y: 180 } };
    const data = JSON.stringify({ type: "response.output_item.done", item });
    const event = `event: response.output_item.done\ndata: ${data}\n\n`;
    const text = new TextEncoder().encode(`event: response.created\ndata: {"type":"response.created"}\n\n${event}`);
    const decoder = new TextDecoder();
    const out = decoder.decode(mapper.push(text.subarray(0, 70))) + decoder.decode(mapper.push(text.subarray(70)));
    expect(out).toContain('"x":640,"y":360');
    expect(out.startsWith('event: response.created\ndata: {"type":"response.created"}\n\n')).toBe(true);
  });
});

describe("fitImage", () => {
  it("downscales a PNG to the bound and keeps PNG; leaves one that fits as it is", async () => {
    const png = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    const small = await fitImage(png, "image/png", 640);
    expect(small).toMatchObject({ mime: "image/png", width: 640, height: 360 });
    expect((await sharp(small.data).metadata()).format).toBe("png");
    const same = await fitImage(png, "image/png", 2000);
    expect(same.data).toBe(png);
  });

  it("refuses bytes that are no image with a 400", async () => {
    await expect(fitImage(Buffer.from("not an image"), "image/png", 640)).rejects.toMatchObject({
      status: 400,
      detail: "invalid_image_format",
    });
  });
});

describe("the local model's context", () => {
  const turn = (role: ChatMessage["role"], content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
    role,
    content,
    ...extra,
  });

  it("answers at most DEFAULT_MAX_TOKENS unless asked, and trims for at most half the context", () => {
    expect(answerBudget(undefined)).toBe(DEFAULT_MAX_TOKENS);
    expect(answerBudget(20)).toBe(20);
    expect(roomWanted(4000, 2048)).toBe(1024);
  });

  it("drops the oldest turn with its tool results, keeping system messages and the last message", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } };
    const messages = [
      turn("system", "rules"),
      turn("assistant", "", { toolCalls: [call] }),
      turn("tool", "result", { toolCallId: "c1" }),
      turn("user", "latest"),
    ];
    expect(withoutOldestTurn(messages)).toEqual([turn("system", "rules"), turn("user", "latest")]);
    expect(withoutOldestTurn([turn("system", "rules"), turn("user", "latest")])).toBeUndefined();
  });

  it("trims until the answer has room", () => {
    const messages = [
      turn("system", "s"),
      ...Array.from({ length: 6 }, (_, i) => turn(i % 2 ? "assistant" : "user", `m${i}`)),
    ];
    const size = (m: ChatMessage[]) => ({ promptTokens: m.length * 100 });
    const fitted = fitConversation(messages, 1000, 500, size);
    expect(fitted.messages.map((m) => m.content)).toEqual(["s", "m2", "m3", "m4", "m5"]);
    expect(fitted.dropped).toBe(2);
  });
});

describe("token estimates", () => {
  it("never count an inline image's base64 as text", async () => {
    const image = `data:image/png;base64,${"A".repeat(200_000)}`;
    const request = {
      model: "m",
      messages: [
        {
          role: "user" as const,
          content: [
            { type: "text" as const, text: "hi" },
            { type: "image_url" as const, image_url: { url: image } },
          ],
        },
      ],
    };
    const tokens = await estimatePromptTokens({
      kind: "chat",
      messages: toMessages(request),
      options: {} as never,
      request,
    });
    expect(tokens).toBeLessThan(20);
  });
});

describe("maxImageEdge in MODELS", () => {
  const defaults = { prefix: "svc", threads: 1, contextSize: 2048, parallel: 1, queueSize: 8, upstreamTimeoutMs: 1000 };
  it("is read at the model's level and checked", async () => {
    const { parseModelsConfig } = await import("@/lib/models/config");
    const url = "http://127.0.0.1:9/v1";
    const [model] = parseModelsConfig(
      JSON.stringify({ m: { backend: "openai-compatible", url, maxImageEdge: 1024 } }),
      defaults,
    );
    expect(model!.maxImageEdge).toBe(1024);
    expect(() =>
      parseModelsConfig(JSON.stringify({ m: { backend: "openai-compatible", url, maxImageEdge: 10 } }), defaults),
    ).toThrow(/MODELS\.m\.maxImageEdge: maxImageEdge must be at least 64/);
  });
});

describe("a task's event history (resumed streams)", () => {
  it("replays the kept events after a point, then live ones, with a replay_gap when some were dropped", async () => {
    const { TaskControl } = await import("@/lib/agent/control");
    const control = new TaskControl(3);
    for (let i = 1; i <= 5; i++) control.emit({ event: "step", data: { i } });
    const got: Array<[string, number | undefined]> = [];
    const stop = control.follow(0, (e) => got.push([e.event, e.seq]));
    control.emit({ event: "completed", data: {} });
    stop();
    expect(got).toEqual([
      ["replay_gap", undefined],
      ["step", 3],
      ["step", 4],
      ["step", 5],
      ["completed", 6],
    ]);
    const after: number[] = [];
    control.follow(4, (e) => after.push(e.seq!))();
    expect(after).toEqual([5, 6]);
  });
});
