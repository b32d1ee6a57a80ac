// A stand-in OpenAI-wire upstream on loopback that answers only one API key (a
// wrong key gets OpenAI's own 401 error object, as the hosted service answers
// it), for the Settings → Models tests (API and e2e; no test runner imported).
import { createServer, type IncomingMessage } from "node:http";
import { freePort } from "./harness";

export const UPSTREAM_KEY = "sk-upstream-test-9f3c2a71d4e8b605";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => resolve(raw));
  });
}

export interface KeyCheckingUpstream {
  /** Its OpenAI base URL, ending in /v1. */
  url: string;
  /** Every request's Authorization header and model, in order. */
  seen: { authorization?: string; model?: string }[];
  close(): Promise<void>;
}

/** Answers "ready from <model>" (streamed or not) to the right key only. */
export async function startKeyCheckingUpstream(key = UPSTREAM_KEY): Promise<KeyCheckingUpstream> {
  const seen: KeyCheckingUpstream["seen"] = [];
  const server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || "{}") as { model?: string; stream?: boolean };
    seen.push({ authorization: req.headers.authorization, model: body.model });
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          error: {
            message: "Incorrect API key provided.",
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        }),
      );
    }
    const usage = { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 };
    const content = `ready from ${body.model}`;
    if (body.stream) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const frame = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;
      const chunk = (choices: unknown[], extra = {}) =>
        frame({ id: "c1", object: "chat.completion.chunk", choices, ...extra });
      return res.end(
        chunk([{ index: 0, delta: { role: "assistant", content }, finish_reason: null }]) +
          chunk([{ index: 0, delta: {}, finish_reason: "stop" }]) +
          chunk([], { usage }) +
          "data: [DONE]\n\n",
      );
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "c1",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage,
      }),
    );
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
