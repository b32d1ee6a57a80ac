// Helpers shared by the models-*.test.ts files: an official OpenAI client for a
// server, a raw SSE reader, and read access to a server's usage rows.
import OpenAI from "openai";
import { inject } from "vitest";
import { parseSseText } from "@/lib/api/sse-reader";
import { createDb } from "@/lib/db";
import { waitFor } from "./wait-for";

export const MODEL = "svc.sm-1";
export const CUA = "svc.cua-fast";

export function openai(base = inject("baseUrl"), apiKey = inject("apiKey")) {
  return new OpenAI({ baseURL: `${base}/v1`, apiKey, maxRetries: 0 });
}

export async function postV1(
  path: string,
  body: unknown,
  options: { key?: string; base?: string; signal?: AbortSignal } = {},
) {
  return fetch(`${options.base ?? inject("baseUrl")}/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.key ?? inject("apiKey")}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: options.signal,
  });
}

/** Every `data:` payload of an SSE response, in order (the [DONE] marker included). */
export async function readSse(res: Response): Promise<string[]> {
  return parseSseText(await res.text()).flatMap((item) => (item.type === "event" ? [item.data] : []));
}

const dbs = new Map<string, ReturnType<typeof createDb>>();

export function db(databaseUrl = inject("databaseUrl")) {
  let state = dbs.get(databaseUrl);
  if (!state) dbs.set(databaseUrl, (state = createDb(databaseUrl)));
  return state.client;
}

/** The usage row of one request; usage writes do not hold the response, so wait for it briefly. */
export async function usageRow(requestId: string, databaseUrl?: string) {
  const row = await waitFor(() => db(databaseUrl).usageRecord.findFirst({ where: { requestId } }), {
    timeoutMs: 5000,
    intervalMs: 50,
    message: `the usage row of request ${requestId}`,
  });
  return row!;
}

/** The month-total rows (usage_month_totals) of an organization and of one of its keys. */
export function monthTotalRows(organizationId: string, apiKeyId: string) {
  return db().usageMonthTotal.count({
    where: {
      OR: [
        { scope: "organization", subjectId: organizationId },
        { scope: "key", subjectId: apiKeyId },
      ],
    },
  });
}

export async function closeDbs() {
  await Promise.all([...dbs.values()].map((s) => s.client.$disconnect()));
  dbs.clear();
}

/**
 * A request listener for a scripted OpenAI-wire upstream: each JSON body is kept in `received`, then `reply` answers
 * it.
 */
export function scriptedUpstream(
  received: unknown[],
  reply: (body: any, res: import("node:http").ServerResponse) => void,
) {
  return (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw);
      received.push(body);
      reply(body, res);
    });
  };
}
