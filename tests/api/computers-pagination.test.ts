// @needs server light postgres chromium
// GET /computers pagination (docs/computers.md "List"): without `limit`/`cursor` the answer stays the
// seed's plain array of every session; with them it is still an array, in a stable
// order (newest first by created_at, then id), and the next page is named by
// `x-next-cursor` and a `Link: <…>; rel="next"` header, absent on the last page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Target } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";

let server: TestServer;
let t: Target;
let all: string[] = [];

beforeAll(async () => {
  server = await startServer();
  t = { base: server.url, key: await createOrgKey(server, "Pages") };
  for (let i = 0; i < 5; i++) {
    const res = await api("POST", "/computers", {}, t);
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  // Two ended sessions, so the live filter has fewer rows than the plain list.
  const listed = (await api("GET", "/computers", undefined, t)).body as { id: string }[];
  for (const s of listed.slice(0, 2)) await api("DELETE", `/computers/${s.id}`, undefined, t);
  all = ((await api("GET", "/computers", undefined, t)).body as { id: string }[]).map((s) => s.id);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await server?.destroy();
});

/** Follows rel="next" links from `first` and answers every page's ids, checking both headers agree. */
async function walk(first: string): Promise<string[][]> {
  const pages: string[][] = [];
  let path: string | null = first;
  while (path) {
    const res = await api("GET", path, undefined, t);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push((res.body as { id: string }[]).map((s) => s.id));
    const cursor = res.headers.get("x-next-cursor");
    const link = res.headers.get("link");
    if (!cursor) {
      expect(link).toBeNull();
      break;
    }
    const next = /^<([^>]+)>; rel="next"$/.exec(link ?? "");
    expect(next, `Link header: ${link}`).not.toBeNull();
    const url = new URL(next![1]);
    expect(url.origin).toBe(server.url);
    expect(url.searchParams.get("cursor")).toBe(cursor);
    path = `${url.pathname}${url.search}`;
    expect(pages.length).toBeLessThan(20);
  }
  return pages;
}

describe("GET /computers pagination", () => {
  it("without limit or cursor: the plain array of every session, newest first", async () => {
    const res = await api("GET", "/computers", undefined, t);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    expect(res.headers.get("x-next-cursor")).toBeNull();
    const created = (res.body as { created_at: string }[]).map((s) => Date.parse(s.created_at));
    expect(created).toEqual([...created].sort((x, y) => y - x));
  });

  it("pages of `limit` follow each other by cursor: every session once, in the same order", async () => {
    const pages = await walk("/computers?limit=2");
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all);
  });

  it("works with the filters: the cursor link keeps type", async () => {
    const live = ((await api("GET", "/computers?type=live", undefined, t)).body as { id: string }[]).map((s) => s.id);
    expect(live).toHaveLength(3);
    const pages = await walk("/computers?type=live&limit=2");
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    expect(pages.flat()).toEqual(live);
  });

  it("a limit as large as the list has no next page", async () => {
    const res = await api("GET", "/computers?limit=5", undefined, t);
    expect((res.body as unknown[]).length).toBe(5);
    expect(res.headers.get("x-next-cursor")).toBeNull();
    expect(res.headers.get("link")).toBeNull();
  });

  it("a bad limit or cursor is a 400 naming it", async () => {
    for (const limit of ["0", "-1", "abc", "1001", "2.5", ""]) {
      const res = await api("GET", `/computers?limit=${encodeURIComponent(limit)}`, undefined, t);
      expect(res.status, `limit=${limit}`).toBe(400);
      expect(res.body.error.param).toBe("limit");
      expect(res.body.error.message).toContain("limit");
    }
    const garbage = [
      "nope!",
      Buffer.from("[1,2]").toString("base64url"),
      Buffer.from('["x","comp_1"]').toString("base64url"),
      "a".repeat(300),
    ];
    for (const cursor of garbage) {
      const res = await api("GET", `/computers?limit=2&cursor=${encodeURIComponent(cursor)}`, undefined, t);
      expect(res.status, `cursor=${cursor}`).toBe(400);
      expect(res.body.error.param).toBe("cursor");
      expect(res.body.error.message).toContain("cursor");
    }
  });
});
