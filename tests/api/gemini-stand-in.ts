// A stand-in for Gemini's API on 127.0.0.1, for API tests of the google
// backend. It speaks the wire format as Google's SDK defines it:
// POST /v1beta/models/{model}:generateContent and
// :streamGenerateContent?alt=sse with x-goog-api-key, `contents` of `parts`
// (text, inlineData, fileData, functionCall, functionResponse),
// `tools[].functionDeclarations`, answers as GenerateContentResponse objects
// (whole, or one per SSE `data:` line) with usageMetadata, and errors as
// {error: {code, message, status}}. Like the hosted service it cannot fetch
// private addresses: a fileData URI on loopback or a private network is a 400.
import { createServer } from "node:http";
import { listenOnLoopback } from "./loopback";

type Json = Record<string, any>;

export type GeminiTurn =
  | { text?: string; calls?: { name: string; args: Json }[] }
  | { error: { code: number; status: string; message: string } };

export interface GeminiStandIn {
  /** Base URL including /v1beta, as MODELS' `url` takes it. */
  url: string;
  requests: Array<{ path: string; headers: Record<string, unknown>; body: Json }>;
  setScript(turns: GeminiTurn[]): void;
  close(): Promise<void>;
}

export const GEMINI_USAGE = { promptTokenCount: 31, candidatesTokenCount: 13, totalTokenCount: 44 };
const PRIVATE_HOST = /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.|\[::1\])/i;
const ROUTE = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)(\?alt=sse)?$/;

function refusal(body: Json): string | undefined {
  for (const content of body.contents ?? []) {
    if (!["user", "model"].includes(content.role)) return `Please use a valid role: user, model.`;
    for (const part of content.parts ?? []) {
      if (part.fileData && PRIVATE_HOST.test(new URL(part.fileData.fileUri).hostname))
        return "Cannot fetch content from the provided URL.";
      if (part.inlineData && !/^[A-Za-z0-9+/]+=*$/.test(part.inlineData.data))
        return "Invalid value at inline_data.data";
    }
  }
  return undefined;
}

export async function startGeminiStandIn(apiKey = "gemini-test-key"): Promise<GeminiStandIn> {
  const requests: GeminiStandIn["requests"] = [];
  let script: GeminiTurn[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const fail = (code: number, status: string, message: string) => {
        res.writeHead(code, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code, message, status } }));
      };
      const route = ROUTE.exec(req.url ?? "");
      if (req.method !== "POST" || !route) return fail(404, "NOT_FOUND", `${req.url} was not found`);
      const body = JSON.parse(raw) as Json;
      requests.push({ path: req.url!, headers: req.headers, body });
      if (req.headers["x-goog-api-key"] !== apiKey)
        return fail(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.");
      const refused = refusal(body);
      if (refused) return fail(400, "INVALID_ARGUMENT", refused);
      const turn = script.shift() ?? { text: "The script is finished." };
      if ("error" in turn) return fail(turn.error.code, turn.error.status, turn.error.message);
      const parts: Json[] = [
        ...(turn.text ? [{ text: turn.text }] : []),
        ...(turn.calls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.args } })),
      ];
      const candidate = (p: Json[], finish?: string) => ({
        candidates: [{ content: { role: "model", parts: p }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
        modelVersion: route[1],
      });
      if (route[2] === "generateContent") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ ...candidate(parts, "STOP"), usageMetadata: GEMINI_USAGE }));
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunks = parts.flatMap((p) =>
        p.text
          ? [
              { text: p.text.slice(0, Math.ceil(p.text.length / 2)) },
              { text: p.text.slice(Math.ceil(p.text.length / 2)) },
            ]
          : [p],
      );
      chunks.forEach((p, i) => {
        const last = i === chunks.length - 1;
        const chunk = last ? { ...candidate([p], "STOP"), usageMetadata: GEMINI_USAGE } : candidate([p]);
        res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      });
      res.end();
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: `${loopback.url}/v1beta`,
    requests,
    setScript: (turns) => {
      script = [...turns];
    },
    close: loopback.close,
  };
}
