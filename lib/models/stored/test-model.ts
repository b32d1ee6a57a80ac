// The dashboard's "Test" button: one short real chat completion through the
// same path as POST /v1/chat/completions (registry, backend, metering: it is
// billed to the organization as a dashboard request), answered with the
// model's text or the provider's error, and how long it took.
import { AppError, isAppError } from "@/lib/api/errors";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";
import { complete } from "@/lib/models/model-calls";
import { environmentModels } from "@/lib/models/registry";
import { findStoredModel } from "@/lib/models/stored/store";

const PROMPT = "Reply with the single word: ready";

export interface ModelTestResult {
  ok: boolean;
  /** The upstream's answer (ok) or Cabin's status for the failure (the provider's own status is in `error`). */
  status: number;
  answer: string | null;
  error: string | null;
  latency_ms: number;
}

export async function testStoredModel(args: {
  organizationId: string;
  id: string;
  requestId: string;
  signal: RequestSignal;
}): Promise<ModelTestResult> {
  const row = await findStoredModel(args.organizationId, args.id);
  if (environmentModels().reserved.has(row.modelId)) {
    throw new AppError(
      "conflict",
      `MODELS on this server configures '${row.modelId}': its model answers that id, not this one`,
      {
        param: "id",
      },
    );
  }
  const body = { model: row.modelId, messages: [{ role: "user", content: PROMPT }], max_tokens: 16, temperature: 0 };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const principal = { organizationId: args.organizationId, apiKeyId: null };
  try {
    // A test spends like any request: a spent budget is its answer, as on /v1.
    const { completion } = await complete({ principal, requestId: args.requestId, signal: args.signal }, body, {
      admission: "budget",
    });
    return {
      ok: true,
      status: 200,
      answer: completion.choices[0]?.message.content ?? "",
      error: null,
      latency_ms: elapsed(),
    };
  } catch (err) {
    if (!isAppError(err)) throw err;
    return { ok: false, status: err.status, answer: null, error: err.message, latency_ms: elapsed() };
  }
}
