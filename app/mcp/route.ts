// /mcp: Cabin's MCP server (Streamable HTTP), authenticated by the API key; docs/mcp.md.
import { withApiKey } from "@/lib/routes/handlers";
import { handleMcpRequest } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

const handler = withApiKey("api", ({ req, principal }) => handleMcpRequest(req, principal));
export { handler as GET, handler as POST, handler as DELETE };
