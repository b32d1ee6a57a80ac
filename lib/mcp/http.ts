// POST/GET/DELETE /mcp: the MCP server over Streamable HTTP (stateless: a
// server and transport per request, so any node can answer any request and
// nothing is held between them), authenticated by the API key (Bearer) like
// /computers. A bad key is a 401 before any MCP message is read.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { publicOrigin } from "@/lib/api/public-url";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { registerTools } from "@/lib/mcp/tools";

export const MCP_SERVER_INFO = { name: "cabin", version: "1.0.0" };

export async function handleMcpRequest(req: Request, principal: ApiPrincipal): Promise<Response> {
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      "Cabin's remote computers (browser and desktop sessions) and its agent loop. Create a session, act on it, look at it with screenshot, end it; or run_agent_task.",
  });
  registerTools(server, { principal, origin: publicOrigin(req.headers) });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  const response = await transport.handleRequest(req);
  // The answer may still be streaming (SSE): the server is closed once the body is done or dropped.
  if (!response.body) {
    await server.close();
    return response;
  }
  const closing = new TransformStream<Uint8Array, Uint8Array>({ flush: () => void server.close() });
  void response.body.pipeTo(closing.writable).catch(() => void server.close());
  return new Response(closing.readable, { status: response.status, headers: response.headers });
}
