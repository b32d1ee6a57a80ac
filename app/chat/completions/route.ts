// POST /chat/completions without the /v1 prefix: the path the public Lightcone SDKs'
// `chat.createCompletion` / `chat.create_completion` post to. It is POST /v1/chat/completions,
// answered by the same route table (`nextModelRoute`); docs/sdk-compatibility.md.
import { nextModelRoute } from "@/lib/models/model-api";

export const dynamic = "force-dynamic";

export function POST(req: Request): Promise<Response> {
  const url = new URL(req.url);
  url.pathname = "/v1/chat/completions";
  // duplex "half": the body is streamed on to the handler, not read here first.
  const init: RequestInit & { duplex: "half" } = {
    method: "POST",
    headers: req.headers,
    body: req.body,
    signal: req.signal,
    duplex: "half",
  };
  return nextModelRoute(new Request(url, init));
}
