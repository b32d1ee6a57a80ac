// The `fill_credentials` tool a task's loop offers when the task names credentials
// (docs/credentials.md "In agent tasks"): the model sees their names and domains,
// asks for one by name, and the action runs through the same action service as
// POST /computers/{id}/execute. The values reach the page, never the model: what
// the model gets back is which fields were filled, or why nothing was.
import { runAction, type ComputerRef } from "@/lib/agent/computer";
import { type AppError, isAppError } from "@/lib/api/errors";
import { credentialsNamed } from "@/lib/credentials/store";
import type { InputItem } from "@/lib/models/model-api";

export const FILL_CREDENTIALS_TOOL = "fill_credentials";

export interface FunctionCall {
  call_id: string;
  name: string;
  arguments: string;
}

/** The tool's definition for the task's credentials (unknown names: a 400 naming them), or null when it names none. */
export async function fillCredentialsTool(organizationId: string, names: string[]) {
  if (!names.length) return null;
  const credentials = await credentialsNamed(organizationId, names, "credentials");
  const listed = credentials
    .map((c) => `'${c.name}' for ${c.domain}${c.has_totp ? " (with one-time codes)" : ""}`)
    .join("; ");
  return {
    type: "function" as const,
    name: FILL_CREDENTIALS_TOOL,
    description:
      `Fills the login form on the current page with a stored login: user name, password and, when the form asks ` +
      `for one, a one-time code. You never see the values. Only works on a page of the login's domain. ` +
      `Logins: ${listed}.`,
    parameters: {
      type: "object",
      properties: { name: { type: "string", enum: credentials.map((c) => c.name), description: "The login to fill" } },
      required: ["name"],
      additionalProperties: false,
    },
  };
}

/** The action a call asks for, as the loop records and announces it: the credential's name only. */
export function fillActionOf(call: FunctionCall): { type: "fill_credentials"; name: string } {
  let name = "";
  try {
    const args = JSON.parse(call.arguments) as { name?: unknown };
    if (typeof args.name === "string") name = args.name;
  } catch {
    // a malformed call fills nothing; the action service's 400 says why
  }
  return { type: "fill_credentials", name };
}

/** A refusal of this call the model can act on (another page, another name), not the session's end. */
function isRefusal(err: unknown): err is AppError {
  if (!isAppError(err)) return false;
  if (err.code === "invalid_request") return true;
  if (err.code === "conflict") return err.detail === "conflict"; // the page is on another host
  return err.code === "not_found" && err.param === "name"; // no such credential (deleted since the start)
}

/**
 * Runs the turn's fill calls in order and answers each (a call after a failure is answered unrun): a failure is
 * the model's to read, as for the computer tool's actions. A refusal (wrong host, unknown name) is an answer too.
 */
export async function runFillCalls(
  computer: ComputerRef,
  calls: FunctionCall[],
  failedBefore: string | null,
): Promise<{ outputs: InputItem[]; error: string | null }> {
  let error = failedBefore;
  const outputs: InputItem[] = [];
  for (const call of calls) {
    let output: string;
    if (error) output = JSON.stringify({ status: "not_run", reason: "an earlier action of this turn failed" });
    else {
      try {
        const result = await runAction(computer, fillActionOf(call));
        if (result.status === "error") error = result.error_message ?? "fill_credentials failed";
        output = JSON.stringify(
          result.status === "error" ? { status: "error", error } : { status: "success", ...result.result },
        );
      } catch (err) {
        if (!isRefusal(err)) throw err;
        error = err.message;
        output = JSON.stringify({ status: "error", error });
      }
    }
    outputs.push({ type: "function_call_output", call_id: call.call_id, output } as InputItem);
  }
  return { outputs, error };
}
