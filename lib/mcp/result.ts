// What every MCP tool shares: who calls (the API key's organization and the
// origin for links) and how an answer or a refusal becomes a tool result.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isAppError } from "@/lib/api/errors";
import type { ApiPrincipal } from "@/lib/auth/api-keys";

export interface McpCaller {
  principal: ApiPrincipal;
  origin: string;
}

export const jsonResult = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
});

export const errorResult = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

/** Runs a tool body; refusals (AppError, named by code) and failures become `isError` results, never a crash. */
export async function toolResult(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    return errorResult(
      isAppError(err) ? `${err.code}: ${err.message}` : `internal error: ${(err as Error)?.message ?? String(err)}`,
    );
  }
}
