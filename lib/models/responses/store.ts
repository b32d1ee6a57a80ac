// Stored responses, per organization: what `previous_response_id` chains from
// and `GET /v1/responses/{id}` reads. A response of another organization is
// not found, exactly like one that never existed.
import { AppError } from "@/lib/api/errors";
import { getDb } from "@/lib/db";
import type { InputItem } from "@/lib/models/responses/schema";

export interface StoredResponse {
  /** The whole conversation this response answered (chained turns first). */
  input: InputItem[];
  /** The response object as it was answered. */
  response: { output: InputItem[] } & Record<string, unknown>;
}

export async function saveResponse(
  organizationId: string,
  id: string,
  model: string,
  input: InputItem[],
  response: Record<string, unknown>,
): Promise<void> {
  await getDb().modelResponse.create({
    data: { id, organizationId, model, input: JSON.stringify(input), response: JSON.stringify(response) },
  });
}

/** The stored response, or a 404 naming `param` (the path's id, or `previous_response_id`). */
export async function loadResponse(organizationId: string, id: string, param?: string): Promise<StoredResponse> {
  const row = await getDb().modelResponse.findFirst({ where: { id, organizationId } });
  if (!row)
    throw new AppError("not_found", `No response with id '${id}' found`, { param, detail: "response_not_found" });
  return {
    input: JSON.parse(row.input) as InputItem[],
    response: JSON.parse(row.response) as StoredResponse["response"],
  };
}

/** A stored response's conversation as input items for the next turn: its input, then its output. */
export async function chainedInput(organizationId: string, previousId: string): Promise<InputItem[]> {
  const previous = await loadResponse(organizationId, previousId, "previous_response_id");
  return [...previous.input, ...previous.response.output];
}
