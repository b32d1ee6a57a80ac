// GET /computers pagination (docs/computers.md "List"): `limit` and `cursor` query parameters.
// Without them the answer stays the seed's plain array of every session (clients
// of this API read an array). With them the body is still an array (SDKs parse
// arrays) and the next page is named in headers: `x-next-cursor` and
// `Link: <…>; rel="next"` (RFC 8288), absent on the last page. Order is stable:
// newest first by (created_at, id), the same order as the unpaginated answer.
import { AppError } from "@/lib/api/errors";
import { getDb } from "@/lib/db";
import { LIVE_STATUSES } from "@/lib/computers/sessions/lifecycle";
import type { ListFilter } from "@/lib/computers/sessions/store";

export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 100;
export const NEXT_CURSOR_HEADER = "x-next-cursor";

export interface PagePosition {
  createdAtMs: number;
  id: string;
}

/** Opaque to clients: base64url of the last row's position. */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAtMs, position.id])).toString("base64url");
}

export function decodeCursor(cursor: string): PagePosition {
  const bad = () =>
    new AppError(
      "invalid_request",
      "cursor: not a cursor this server issued; pass the x-next-cursor of the previous page as it was",
      {
        param: "cursor",
        detail: "invalid_cursor",
      },
    );
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw bad();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(value) || value.length !== 2) throw bad();
  const [createdAtMs, id] = value as unknown[];
  if (
    !Number.isSafeInteger(createdAtMs) ||
    (createdAtMs as number) < 0 ||
    typeof id !== "string" ||
    !/^comp_[0-9a-f]{24}$/.test(id)
  )
    throw bad();
  return { createdAtMs: createdAtMs as number, id };
}

/** One page's size and the position it starts after (null: the first page). */
export interface PageQuery {
  limit: number;
  after: PagePosition | null;
}

/** `null` when neither parameter is given: the unpaginated answer. */
export function parsePageQuery(query: URLSearchParams): PageQuery | null {
  const limitText = query.get("limit");
  const cursor = query.get("cursor");
  if (limitText === null && cursor === null) return null;
  let limit = DEFAULT_PAGE_LIMIT;
  if (limitText !== null) {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw new AppError(
        "invalid_request",
        `limit: must be an integer from 1 to ${MAX_PAGE_LIMIT} (got '${limitText.slice(0, 40)}')`,
        {
          param: "limit",
          detail: "invalid_limit",
        },
      );
    }
  }
  return { limit, after: cursor === null ? null : decodeCursor(cursor) };
}

function filterWhere(filter: ListFilter) {
  if (filter === "live") return { status: { in: LIVE_STATUSES } };
  if (filter === "persistent") return { persistent: true, state: { isNot: null } };
  return {};
}

/** One page, newest first; `next` is the position to continue after, or null on the last page. */
export async function listComputerPage(input: {
  organizationId: string;
  filter: ListFilter;
  limit: number;
  after: PagePosition | null;
}) {
  const { after } = input;
  const afterWhere = after
    ? {
        OR: [
          { createdAt: { lt: new Date(after.createdAtMs) } },
          { createdAt: new Date(after.createdAtMs), id: { lt: after.id } },
        ],
      }
    : {};
  const rows = await getDb().computer.findMany({
    where: { organizationId: input.organizationId, ...filterWhere(input.filter), ...afterWhere },
    select: { id: true, kind: true, status: true, createdAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const next = rows.length > input.limit && last ? { createdAtMs: last.createdAt.getTime(), id: last.id } : null;
  return { rows: page, next };
}

/** The headers naming the next page: the request's own query with the new cursor. */
export function nextPageHeaders(input: {
  origin: string;
  query: URLSearchParams;
  next: PagePosition | null;
}): Record<string, string> {
  if (!input.next) return {};
  const cursor = encodeCursor(input.next);
  const query = new URLSearchParams(input.query);
  query.set("cursor", cursor);
  return { [NEXT_CURSOR_HEADER]: cursor, link: `<${input.origin}/computers?${query}>; rel="next"` };
}
