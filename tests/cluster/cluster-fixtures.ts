// Three Cabin nodes on loopback ports sharing one PostgreSQL (docs/cluster.md),
// for tests/cluster: the servers are the API harness's (production build), the
// database a throwaway PostgreSQL unless CABIN_TEST_DATABASE_URL names one.
import pg from "pg";
import { WebSocket } from "ws";
import { startPostgres } from "../../scripts/setup/postgres.mjs";
import { call, type ApiResponse } from "../api/client";
import { startServer, type StartOptions, type TestServer } from "../api/harness";

/** A short lease keeps the failure test short; renewals every 2 s. */
export const LEASE_SECONDS = 6;
export const CLUSTER_ENV = { NODE_LEASE_SECONDS: String(LEASE_SECONDS) };

let postgres: { url: string; stop(): Promise<void> } | null = null;

/** PostgreSQL for the harness: the one given, or a fresh server stopped by `stopPostgres`. */
export async function ensurePostgres(): Promise<void> {
  if (process.env.CABIN_TEST_DATABASE_URL) return;
  postgres = await startPostgres();
  process.env.CABIN_TEST_DATABASE_URL = postgres.url;
}

export async function stopPostgres(): Promise<void> {
  if (!postgres) return;
  await postgres.stop();
  delete process.env.CABIN_TEST_DATABASE_URL;
  postgres = null;
}

export function startNode(options: StartOptions = {}): Promise<TestServer> {
  return startServer({ ...options, env: { ...CLUSTER_ENV, ...options.env } });
}

/** A session call through one node with the organization's key. */
export function through<T = any>(
  node: TestServer,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse<T>> {
  return call<T>(method, path, { base: node.url, key, body });
}

/** An endpoint URL another node built, pointed at `node` instead (same path and token). */
export function via(node: TestServer, endpoint: string): string {
  const url = new URL(endpoint);
  const base = new URL(node.url);
  url.host = base.host;
  return url.toString();
}

export function openWs(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const binary: Buffer[] = [];
  const text: any[] = [];
  ws.on("message", (data, isBinary) => {
    if (isBinary) binary.push(data as Buffer);
    else text.push(JSON.parse(String(data)));
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.once("error", reject);
  });
  opened.catch(() => {});
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  return { ws, binary, text, opened, closed, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

/** Signs up a dashboard user through `node`; the cookie works on every node (one database, one CABIN_SECRET). */
export async function signUpOn(node: TestServer, name: string) {
  const email = `${name.toLowerCase()}-${Date.now()}@example.test`;
  const res = await fetch(`${node.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: node.url },
    body: JSON.stringify({ email, password: "correct horse battery", name }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return {
    cookie,
    request: <T = any>(on: TestServer, method: string, path: string, body?: unknown) =>
      call<T>(method, path, { key: null, body, base: on.url, headers: { cookie, origin: on.url } }),
  };
}

/** The cluster as a node's /api/health shows it. */
export async function clusterView(node: TestServer) {
  const res = await fetch(`${node.url}/api/health`);
  const body = (await res.json()) as {
    checks: {
      cluster: { node: { id: string; started_at: string }; nodes: { id: string; state: string; load: number }[] };
    };
  };
  return body.checks.cluster;
}

/** Rows of the shared database (the test reads it itself). */
export async function queryRows<T extends pg.QueryResultRow>(
  databaseUrl: string,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The node a session runs on, as its row says. */
export async function hostOf(databaseUrl: string, id: string): Promise<string> {
  const rows = await queryRows<{ hostId: string }>(databaseUrl, 'SELECT "hostId" FROM computers WHERE id = $1', [id]);
  return rows[0]!.hostId;
}

/** Reads a streamed answer until its text holds `needle`, or to its end; the text read. */
export async function readUntil(body: ReadableStream<Uint8Array>, needle: string): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(needle)) {
    const read = await reader.read();
    if (read.done) break;
    text += decoder.decode(read.value, { stream: true });
  }
  return text;
}

/** A browser session created through `node`; its id. */
export async function createdOn(node: TestServer, key: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await through(node, key, "POST", "/computers", { kind: "browser", ...body });
  if (res.status !== 200) throw new Error(`create through ${node.url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}
