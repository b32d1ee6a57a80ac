// Shared by the benchmark scripts: timed JSON requests against a Cabin server, and percentiles.

export function timedClient(baseUrl: string, key: string) {
  return async function req(method: string, p: string, body?: unknown) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return { ms, body: text ? JSON.parse(text) : null };
  };
}

export function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
