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

/** Prints [measure, result, target] rows as a Markdown table. */
export function printTable(rows: string[][]) {
  const header = ["measure", "result", "target"];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), header[i].length));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}
