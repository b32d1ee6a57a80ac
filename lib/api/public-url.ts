// The one place that builds the service's public origin (links in answers such
// as screenshot_url, auth callbacks). PUBLIC_URL wins when the operator set it;
// otherwise the origin the client used, from X-Forwarded-Proto/-Host or Host.
// A bind address is never an answer: 0.0.0.0 and [::] become localhost.
import { getEnv, type Env } from "@/lib/env";

/** The header reader of a Web `Request` (enough for tests and Better Auth's request too). */
export interface HeaderSource {
  get(name: string): string | null;
}

// host or host:port: a DNS name, IPv4, or a bracketed IPv6 literal. Anything
// else (paths, user info, spaces) would let a header rewrite the link's target.
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const UNSPECIFIED = /^(?:0\.0\.0\.0|\[::\])(?=:|$)/;

/**
 * A plausible `host[:port]`, else null. An unspecified bind address becomes
 * localhost unless `asSent` (comparing with a browser's Origin header needs the literal).
 */
export function normalizeHost(value: string | null | undefined, asSent = false): string | null {
  const host = value?.split(",")[0]?.trim();
  if (!host || host.length > 261 || !HOST.test(host)) return null;
  const port = /:(\d+)$/.exec(host)?.[1];
  if (port !== undefined && Number(port) > 65535) return null;
  return asSent ? host : host.replace(UNSPECIFIED, "localhost");
}

function forwardedProto(headers: HeaderSource): "http" | "https" | null {
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "http" || proto === "https" ? proto : null;
}

/** PUBLIC_URL (without a trailing slash), else http://localhost:PORT: the origin when no request is at hand. */
export function configuredOrigin(env: Env = getEnv()): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
}

/**
 * The origin the client reached us by: X-Forwarded-Host, else Host (each only
 * when plausible), with X-Forwarded-Proto's scheme (default http). Ignores
 * PUBLIC_URL. `asSent` keeps a 0.0.0.0 host as the browser sent it (the CSRF
 * origin check compares with the browser's Origin; links never use it).
 */
export function requestOrigin(headers: HeaderSource, env: Env = getEnv(), options: { asSent?: boolean } = {}): string {
  const host =
    normalizeHost(headers.get("x-forwarded-host"), options.asSent) ??
    normalizeHost(headers.get("host"), options.asSent) ??
    `localhost:${env.PORT}`;
  return `${forwardedProto(headers) ?? "http"}://${host}`;
}

/** The origin for links in an answer to this request: PUBLIC_URL when set, else the request's. */
export function publicOrigin(headers: HeaderSource, env: Env = getEnv()): string {
  return env.PUBLIC_URL ? configuredOrigin(env) : requestOrigin(headers, env);
}
