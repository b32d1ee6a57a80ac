// @needs nothing
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, ERROR_STATUS } from "@/lib/api/errors";
import { errorBody } from "@/lib/api/render";
import { parseWith } from "@/lib/api/request";

describe("error mapping", () => {
  it("maps every code to a 4xx or 5xx status", () => {
    for (const code of Object.keys(ERROR_STATUS) as (keyof typeof ERROR_STATUS)[]) {
      const { status } = new AppError(code, "x");
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
    }
  });

  it("answers the statuses the contract and clients rely on", () => {
    // docs/contract.md "Errors" for /v1, and the statuses Stainless clients decide retries by.
    const contract = {
      invalid_request: 400,
      unauthorized: 401,
      not_found: 404,
      conflict: 409,
      rate_limited: 429,
      internal: 500,
      unavailable: 503,
    } as const;
    const actual = Object.fromEntries(
      Object.keys(contract).map((code) => [code, new AppError(code as keyof typeof contract, "x").status]),
    );
    expect(actual).toEqual(contract);
  });

  it("renders the session API shape", () => {
    const err = new AppError("conflict", "Session is terminated", { detail: "session_terminated" });
    expect(errorBody(err, "api")).toEqual({ error: { code: "conflict", message: "Session is terminated" } });
    const withParam = new AppError("invalid_request", "bad", { param: "display.width" });
    expect(errorBody(withParam, "api")).toEqual({
      error: { code: "invalid_request", message: "bad", param: "display.width" },
    });
  });

  it("renders the OpenAI envelope with type by status and the fine code", () => {
    const cases: [AppError, string, string][] = [
      [new AppError("unauthorized", "no", { detail: "invalid_api_key" }), "authentication_error", "invalid_api_key"],
      [
        new AppError("not_found", "no", { detail: "model_not_found", param: "model" }),
        "not_found_error",
        "model_not_found",
      ],
      [new AppError("rate_limited", "slow down"), "rate_limit_error", "rate_limited"],
      [new AppError("invalid_request", "bad"), "invalid_request_error", "invalid_request"],
      [new AppError("upstream_error", "boom"), "server_error", "upstream_error"],
    ];
    for (const [err, type, code] of cases) {
      expect(errorBody(err, "openai")).toEqual({
        error: { message: err.message, type, param: err.param ?? null, code },
      });
    }
  });

  it("turns a zod failure into a 400 naming the field", () => {
    const schema = z.object({ display: z.object({ width: z.number().int().min(320) }) });
    try {
      parseWith(schema, { display: { width: 10 } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).param).toBe("display.width");
      expect((err as AppError).message).toContain("display.width");
    }
  });
});

describe("isAppError", () => {
  it("recognises an AppError made by another copy of the module", async () => {
    const { isAppError } = await import("@/lib/api/errors");
    class ForeignAppError extends Error {
      code = "conflict";
      status = 409;
      constructor() {
        super("from another chunk");
        this.name = "AppError";
      }
    }
    expect(isAppError(new ForeignAppError())).toBe(true);
    expect(isAppError(Object.assign(new Error("x"), { name: "AppError", code: "not_a_code" }))).toBe(false);
    expect(isAppError(new Error("plain"))).toBe(false);
    expect(isAppError(null)).toBe(false);
  });
});
