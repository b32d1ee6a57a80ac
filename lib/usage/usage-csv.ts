// CSV export of the Usage page's range: one file, one row per UTC day × model
// (line_type "model") and per UTC day × session kind (line_type "session");
// days and pairs with nothing to count are left out. Streamed row by row.
import { getDb } from "@/lib/db";
import { SESSION_KINDS, summarizeSpans, loadSessionSpans } from "@/lib/computers/session-usage";
import { addRow, emptyTotals, loadUsageRows, roundTotals, type UsageTotals } from "@/lib/usage/usage-report";
import { bucketIndex, bucketStarts, parseUsageRange } from "@/lib/usage-range";

export const USAGE_CSV_HEADER = [
  "date",
  "line_type",
  "name",
  "requests",
  "input_tokens",
  "output_tokens",
  "cost_usd",
  "session_minutes",
];

/** RFC 4180 quoting, and a leading quote for cells a spreadsheet would run as a formula. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (cells: (string | number)[]) => `${cells.map(csvCell).join(",")}\r\n`;

export interface UsageCsv {
  filename: string;
  lines: string[];
}

export async function buildUsageCsv(input: {
  organizationId: string;
  query: URLSearchParams;
  now?: Date;
}): Promise<UsageCsv> {
  const now = input.now ?? new Date();
  const range = parseUsageRange(input.query, now);
  const days = bucketStarts(range, "day");
  const [rows, spans, org] = await Promise.all([
    loadUsageRows(input.organizationId, range),
    loadSessionSpans({ organizationId: input.organizationId, from: range.from, to: range.to, now }),
    getDb().organization.findUnique({ where: { id: input.organizationId }, select: { slug: true } }),
  ]);

  const perDayModel = days.map(() => new Map<string, UsageTotals>());
  for (const row of rows) {
    const d = bucketIndex(days, "day", row.createdAt.getTime());
    if (d < 0) continue;
    const models = perDayModel[d]!;
    if (!models.has(row.model)) models.set(row.model, emptyTotals());
    addRow(models.get(row.model)!, row);
  }
  const sessions = summarizeSpans(spans, days, "day", { browser: 0, desktop: 0 });

  const lines = [line(USAGE_CSV_HEADER)];
  days.forEach((start, i) => {
    const date = new Date(start).toISOString().slice(0, 10);
    for (const [model, t] of [...perDayModel[i]!].sort(([a], [b]) => a.localeCompare(b))) {
      const r = roundTotals(t);
      lines.push(line([date, "model", model, r.requests, r.input_tokens, r.output_tokens, r.cost_usd, 0]));
    }
    for (const kind of SESSION_KINDS) {
      const minutes = sessions.by_bucket[i]![kind];
      if (minutes > 0) lines.push(line([date, "session", kind, 0, 0, 0, 0, minutes]));
    }
  });
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    filename: `cabin-usage-${org?.slug ?? "team"}-${day(range.from)}-to-${day(new Date(range.to.getTime() - 1))}.csv`,
    lines,
  };
}

/** The CSV as a streamed `text/csv` download. */
export function csvResponse(csv: UsageCsv): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= csv.lines.length) return controller.close();
      // A few hundred lines per chunk: small writes, no large string built at once.
      controller.enqueue(new TextEncoder().encode(csv.lines.slice(i, i + 500).join("")));
      i += 500;
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${csv.filename}"`,
      "cache-control": "no-store",
    },
  });
}
