// @needs server light postgres
// x-ratelimit-* on every /v1 answer once the key is known (README: "Rate-limit
// headers"): successes, every refusal after authentication (400, 404 unknown
// model, 404 unknown path, 405, 413, 429 is in models-limits), and none on a
// 401, which cannot know whose limits to report.
import { describe, expect, it } from "vitest";
import { call, type ApiResponse } from "./client";
import { MODEL } from "./models-helpers";

const TRIOS = ["limit", "remaining", "reset"].flatMap((h) => [`x-ratelimit-${h}-requests`, `x-ratelimit-${h}-tokens`]);

function expectRateLimitHeaders(res: ApiResponse, what: string) {
  for (const name of TRIOS)
    expect(res.headers.get(name) ?? "(missing)", `${name} on ${what}`).toMatch(/^\d+(\.\d+)?(ms|s|m\d+s)?$/);
}

describe("x-ratelimit-* headers", () => {
  it("carries them on every authenticated answer, errors included", async () => {
    const cases: [string, Promise<ApiResponse>, number][] = [
      ["GET /v1/models", call("GET", "/v1/models"), 200],
      ["a bad body", call("POST", "/v1/chat/completions", { body: { model: MODEL, messages: [] } }), 400],
      ["malformed JSON", call("POST", "/v1/embeddings", { rawBody: "{" }), 400],
      ["an unknown model", call("GET", "/v1/models/svc.nope"), 404],
      ["an unknown path", call("GET", "/v1/no/such/thing"), 404],
      ["an unknown path (POST)", call("POST", "/v1/files", { body: {} }), 404],
      ["a wrong method", call("GET", "/v1/chat/completions"), 405],
      ["a wrong method on a GET route", call("DELETE", "/v1/models"), 405],
    ];
    for (const [what, pending, status] of cases) {
      const res = await pending;
      expect(res.status, what).toBe(status);
      expectRateLimitHeaders(res, what);
      expect(res.headers.get("x-request-id"), what).toBeTruthy();
    }
  });

  it("reports the organization's own budget on an unknown path, without spending it", async () => {
    const models = await call("GET", "/v1/models");
    const unknown = await call("GET", "/v1/no/such/thing");
    const limit = models.headers.get("x-ratelimit-limit-requests");
    expect(Number(limit)).toBeGreaterThan(0);
    expect(unknown.headers.get("x-ratelimit-limit-requests")).toBe(limit);
    // The bucket only refills between the two reads: neither answer took a request unit.
    expect(Number(unknown.headers.get("x-ratelimit-remaining-requests"))).toBeGreaterThanOrEqual(
      Number(models.headers.get("x-ratelimit-remaining-requests")),
    );
  });

  it("sends none on a 401, and none on an unknown path with a bad key (still a 404)", async () => {
    for (const key of [null, "not-a-key"]) {
      const denied = await call("GET", "/v1/models", { key });
      expect(denied.status).toBe(401);
      for (const name of TRIOS) expect(denied.headers.get(name)).toBeNull();
      const unknown = await call("GET", "/v1/no/such/thing", { key });
      expect(unknown.status).toBe(404);
      for (const name of TRIOS) expect(unknown.headers.get(name)).toBeNull();
    }
  });
});
