// The model API's typed commands for in-process callers (agent tasks, docs/agent-tasks.md "Billing"; the
// dashboard's model test): the same admission, backends, metering and usage rows as POST /v1/responses and
// /v1/chat/completions, with typed results: the answer and the call's cost as fields, not a JSON text and
// a response header.
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { admitModelCall, type ModelPrincipal, type ModelRequest } from "@/lib/models/gateway/http";
import { getBudgetLedger } from "@/lib/models/limits/budget";
import { chatCompletionSchema } from "@/lib/models/gateway/schemas";
import { createChatCompletion } from "@/lib/models/generation/inference";
import { createResponse } from "@/lib/models/responses/create";
import { responsesCreateSchema, type InputItem } from "@/lib/models/responses/schema";

export { admitModelCall, type ModelPrincipal, type ModelRequest };
export type { InputItem };

/** A Responses API answer as in-process callers read it. */
export interface ModelResponse {
  output: InputItem[];
  output_text?: string;
  usage?: { input_tokens: number; output_tokens: number };
}

/** A chat completion as in-process callers read it. */
export interface ChatCompletion {
  id: string;
  model: string;
  choices: { index: number; message: { role: string; content: string | null }; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface CompleteResult {
  completion: ChatCompletion;
  /** What the call cost, as metered into its usage row. */
  costUsd: number;
}

/**
 * One non-streamed chat completion billed to `ctx.principal`, `body` checked by POST /v1/chat/completions'
 * schema. Admitted as /v1 admits a call (`admission: "call"`), or against the budgets alone (`"budget"`:
 * the dashboard's model test, which spends like a request but is not one of the organization's calls).
 */
export async function complete(
  ctx: ModelRequest,
  body: unknown,
  { admission = "call" }: { admission?: "call" | "budget" } = {},
): Promise<CompleteResult> {
  const request = parseWith(chatCompletionSchema, body);
  if (request.stream)
    throw new AppError("invalid_request", "stream: complete answers whole completions", { param: "stream" });
  const admitted = admission === "call" ? admitModelCall(ctx.principal) : getBudgetLedger().check(ctx.principal);
  if (admitted) await admitted;
  const reply = await createChatCompletion(ctx, request);
  if (reply.status !== 200 || reply.json === undefined) {
    throw new AppError("upstream_error", `The model call ended with status ${reply.status}`);
  }
  return { completion: reply.json as ChatCompletion, costUsd: reply.costUsd ?? 0 };
}

export interface RespondResult {
  response: ModelResponse;
  /** What the call cost, as metered into its usage row (0 for a model without prices). */
  costUsd: number;
}

/**
 * One non-streamed Responses call billed to `ctx.principal`, admitted as /v1 admits an inference request
 * (budgets, the key's and the organization's rate limits; a refusal is a 429 AppError). `body` is checked by
 * the same schema as POST /v1/responses (a 400 naming the field); `stream` is not offered here.
 */
export async function respond(ctx: ModelRequest, body: unknown): Promise<RespondResult> {
  const admitted = admitModelCall(ctx.principal);
  if (admitted) await admitted;
  const request = parseWith(responsesCreateSchema, body);
  if (request.stream)
    throw new AppError("invalid_request", "stream: respond answers whole responses", { param: "stream" });
  const reply = await createResponse(ctx, request);
  if (reply.status !== 200 || reply.json === undefined) {
    throw new AppError("upstream_error", `The model call ended with status ${reply.status}`);
  }
  return { response: reply.json as ModelResponse, costUsd: reply.costUsd ?? 0 };
}
