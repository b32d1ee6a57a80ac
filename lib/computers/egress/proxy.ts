// The operator's upstream proxy (ADVANCED_PROXY_URL) for use_advanced_proxy.
// Credentials are split out for the driver and never appear in responses or logs.
import type { ProxyConfig } from "@/lib/computers/driver";

/** `http://user:pass@host:port` → server without credentials, plus decoded username/password. */
export function parseProxyUrl(raw: string): ProxyConfig {
  const url = new URL(raw);
  const server = `${url.protocol}//${url.host}`;
  const config: ProxyConfig = { server };
  if (url.username) config.username = decodeURIComponent(url.username);
  if (url.password) config.password = decodeURIComponent(url.password);
  return config;
}

/** For logs and health: the proxy address with any credentials removed. */
export function describeProxy(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    return parseProxyUrl(raw).server;
  } catch {
    return "(invalid URL)";
  }
}
