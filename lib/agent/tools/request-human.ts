// The `request_human` function the loop offers the model beside the computer
// tool and `done` (docs/agent-tasks.md "Hand-off to a person"): the model asks a
// person to take over (a login, a one-time code, a captcha) and says why. The
// loop then holds the task `awaiting_human` until someone gives control back.

export const REQUEST_HUMAN_TOOL = {
  type: "function",
  name: "request_human",
  description:
    "Ask a person to take over the computer for something you cannot or must not do yourself " +
    "(a login, a one-time code, a captcha, a decision). Say what they should do. You get control back " +
    "with a note of what they did and a new screenshot.",
  parameters: {
    type: "object",
    properties: {
      reason: { type: "string", description: "What the person should do, in a sentence (shown to them)." },
    },
    required: ["reason"],
    additionalProperties: false,
  },
} as const;

/** The longest reason kept: it is shown in the dashboard and in the needs_human event. */
export const MAX_REASON_LENGTH = 2000;

/** The reason in a model's `request_human` arguments; a call without a usable one still hands off. */
export function parseRequestHuman(args: string): { reason: string } {
  let reason = "";
  try {
    const value = JSON.parse(args) as { reason?: unknown };
    reason = typeof value.reason === "string" ? value.reason : "";
  } catch {
    reason = args;
  }
  reason = reason.trim().slice(0, MAX_REASON_LENGTH);
  return { reason: reason || "The agent asked for a person without saying why." };
}

/** The function_call_output answering the model's call: the Responses API wants every call answered. */
export function requestHumanOutput(callId: string) {
  return {
    type: "function_call_output" as const,
    call_id: callId,
    output: "A person has control now. The next message says what they did, with a new screenshot.",
  };
}
