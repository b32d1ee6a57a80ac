// POST/GET/DELETE /mcp: the MCP server over Streamable HTTP (stateless: a
// server and transport per request, so any node can answer any request and
// nothing is held between them), authenticated by the API key (Bearer) like
// /computers. A bad key is a 401 before any MCP message is read.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError } from "@/lib/api/errors";
import { publicOrigin } from "@/lib/api/public-url";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { registerTools } from "@/lib/mcp/tools";

/** The Streamable HTTP transport's default body limit (its `maxRequestBodySize`, 4 MiB). */
const MCP_TRANSPORT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export const MCP_SERVER_INFO = { name: "cabin", version: "1.0.0" };

export async function handleMcpRequest(incoming: Request, principal: ApiPrincipal): Promise<Response> {
  // No standalone notification stream in stateless mode (docs/mcp.md "Limits"): the transport would hold
  // an empty stream open until the client left. MCP clients take a 405 as "no such stream" and go on.
  if (incoming.method === "GET") {
    throw new AppError(
      "method_not_allowed",
      "GET /mcp (a standalone notification stream) is not offered: POST messages",
      {
        headers: { allow: "POST, DELETE" },
      },
    );
  }
  let req = incoming;
  let parsedBody: unknown;
  if (incoming.method === "POST") {
    // A tool call on a session another node runs never gets here: the forwarder in front of Next sent it to
    // that node (docs/cluster.md "Forwarding").
    const body = await incoming.text();
    // Past the transport's own body limit (which it applies only to a body it reads) it reads it and refuses it.
    parsedBody = Buffer.byteLength(body) <= MCP_TRANSPORT_MAX_BODY_BYTES ? parsedOrUndefined(body) : undefined;
    req = new Request(incoming.url, { method: "POST", headers: incoming.headers, body, signal: incoming.signal });
  }
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      "Cabin's remote computers (browser and desktop sessions) and its agent loop. Create a session, act on it, " +
      "look at it with screenshot, end it; or run_agent_task.",
  });
  registerTools(server, { principal, origin: publicOrigin(req.headers) });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  // The body is parsed once: the transport takes it as read here (it parses the text itself only when it is not JSON).
  const response = await transport.handleRequest(req, parsedBody === undefined ? undefined : { parsedBody });
  // The answer may still be streaming (SSE): the server is closed once the body is done or dropped.
  if (!response.body) {
    await server.close();
    return response;
  }
  const closing = new TransformStream<Uint8Array, Uint8Array>({ flush: () => void server.close() });
  void response.body.pipeTo(closing.writable).catch(() => void server.close());
  return new Response(closing.readable, { status: response.status, headers: response.headers });
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // the transport answers a parse error itself
  }
}
