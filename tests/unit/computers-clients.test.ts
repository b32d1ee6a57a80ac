// @needs nothing
// Pure pieces of what real clients rely on (docs/contract.md): the public origin,
// screenshot capability tokens, retry hints, Prisma error mapping, unknown fields.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { configuredOrigin, normalizeHost, publicOrigin, requestOrigin } from "@/lib/api/public-url";
import { renderError, toAppError } from "@/lib/api/render";
import { parseWith } from "@/lib/api/request";
import { loadEnv } from "@/lib/env";
import { parseAction } from "@/lib/computers/actions/actions";
import { parseCreateOptions } from "@/lib/computers/sessions/create-options";
import { screenshotToken, verifyScreenshotToken } from "@/lib/computers/screenshots/screenshot-links";

const headers = (h: Record<string, string>) => new Headers(h);
const env = loadEnv({ PORT: "3000" });
const withPublicUrl = loadEnv({ PORT: "3000", PUBLIC_URL: "https://cabin.example/" });

describe("public origin", () => {
  it("uses PUBLIC_URL when set, whatever the request says", () => {
    expect(publicOrigin(headers({ host: "other:1" }), withPublicUrl)).toBe("https://cabin.example");
    expect(configuredOrigin(env)).toBe("http://localhost:3000");
  });

  it("else X-Forwarded-Proto/-Host, else Host", () => {
    expect(publicOrigin(headers({ host: "10.0.0.5:3000" }), env)).toBe("http://10.0.0.5:3000");
    expect(
      publicOrigin(
        headers({ host: "internal:3000", "x-forwarded-host": "cabin.example", "x-forwarded-proto": "https" }),
        env,
      ),
    ).toBe("https://cabin.example");
    expect(
      publicOrigin(
        headers({ host: "h", "x-forwarded-host": "a.example, b.example", "x-forwarded-proto": "https,http" }),
        env,
      ),
    ).toBe("https://a.example");
    expect(publicOrigin(headers({ host: "[::1]:8080" }), env)).toBe("http://[::1]:8080");
  });

  it("never says 0.0.0.0, and ignores implausible headers", () => {
    expect(publicOrigin(headers({ host: "0.0.0.0:3000" }), env)).toBe("http://localhost:3000");
    expect(publicOrigin(headers({ host: "[::]:3000" }), env)).toBe("http://localhost:3000");
    expect(publicOrigin(headers({ host: "good:1", "x-forwarded-host": "evil.example/path?x" }), env)).toBe(
      "http://good:1",
    );
    expect(publicOrigin(headers({ host: "user@evil", "x-forwarded-proto": "javascript" }), env)).toBe(
      "http://localhost:3000",
    );
    expect(publicOrigin(headers({}), env)).toBe("http://localhost:3000");
    expect(normalizeHost("h:99999")).toBeNull();
    // The CSRF origin check compares with what the browser sent.
    expect(requestOrigin(headers({ host: "0.0.0.0:3000" }), env, { asSent: true })).toBe("http://0.0.0.0:3000");
  });

  it("treats an empty PUBLIC_URL as unset", () => {
    expect(loadEnv({ PUBLIC_URL: "" }).PUBLIC_URL).toBeUndefined();
  });
});

describe("screenshot capability tokens", () => {
  const ref = { computerId: "comp_0123456789abcdef01234567", name: "shot_1_0123456789ab.png" };
  const secret = "s".repeat(40);
  const now = 1_800_000_000_000;

  it("verifies for its own file until it expires", () => {
    const token = screenshotToken(ref, now + 60_000, secret);
    expect(verifyScreenshotToken(ref, token, now, secret)).toBe(true);
    expect(verifyScreenshotToken(ref, token, now + 60_000, secret)).toBe(false);
  });

  it("refuses another file, another session, another secret, a moved expiry, a tampered MAC", () => {
    const token = screenshotToken(ref, now + 60_000, secret);
    expect(verifyScreenshotToken({ ...ref, name: "shot_1_aaaaaaaaaaaa.png" }, token, now, secret)).toBe(false);
    expect(verifyScreenshotToken({ ...ref, computerId: "comp_ffffffffffffffffffffffff" }, token, now, secret)).toBe(
      false,
    );
    expect(verifyScreenshotToken(ref, token, now, "t".repeat(40))).toBe(false);
    const [exp, mac] = token.split(".");
    expect(verifyScreenshotToken(ref, `${Number(exp) + 3600}.${mac}`, now, secret)).toBe(false);
    const flipped = mac.slice(0, -2) + (mac.at(-2) === "A" ? "B" : "A") + mac.at(-1);
    expect(verifyScreenshotToken(ref, `${exp}.${flipped}`, now, secret)).toBe(false);
    expect(verifyScreenshotToken(ref, "", now, secret)).toBe(false);
    expect(verifyScreenshotToken(ref, `${exp}.${mac}x`, now, secret)).toBe(false);
  });
});

describe("retry hints", () => {
  const hints = (error: AppError) => {
    const { headers: h } = renderError(error, "api", "req_1");
    return { retry: h["x-should-retry"], after: h["retry-after"] };
  };

  it("false where a retry cannot help, true with retry-after on 429/503, nothing on other 5xx", () => {
    for (const code of [
      "invalid_request",
      "unauthorized",
      "forbidden",
      "not_found",
      "method_not_allowed",
      "conflict",
      "payload_too_large",
      "not_implemented",
    ] as const) {
      expect([code, hints(new AppError(code, "x"))]).toEqual([code, { retry: "false", after: undefined }]);
    }
    expect(hints(new AppError("unavailable", "x"))).toEqual({ retry: "true", after: "1" });
    expect(hints(new AppError("rate_limited", "x", { headers: { "retry-after": "7" } }))).toEqual({
      retry: "true",
      after: "7",
    });
    expect(hints(new AppError("internal", "x"))).toEqual({ retry: undefined, after: undefined });
    expect(hints(new AppError("upstream_timeout", "x"))).toEqual({ retry: undefined, after: undefined });
  });
});

describe("Prisma errors", () => {
  // Shaped like @prisma/client's PrismaClientKnownRequestError (a copy from another bundle).
  class PrismaClientKnownRequestError extends Error {
    constructor(
      readonly code: string,
      readonly meta?: Record<string, unknown>,
    ) {
      super(`prisma ${code}`);
      this.name = "PrismaClientKnownRequestError";
    }
  }

  it("maps not-found to 404 and unique violations to 409; anything else stays a 500", () => {
    expect(toAppError(new PrismaClientKnownRequestError("P2025", { modelName: "ApiKey" }), "r")).toMatchObject({
      code: "not_found",
      status: 404,
    });
    expect(toAppError(new PrismaClientKnownRequestError("P2001"), "r").status).toBe(404);
    const conflict = toAppError(new PrismaClientKnownRequestError("P2002", { modelName: "Member" }), "r");
    expect(conflict).toMatchObject({ code: "conflict", status: 409 });
    expect(conflict.message).toMatch(/Member/);
    expect(toAppError(new PrismaClientKnownRequestError("P2003"), "r").status).toBe(500);
    expect(toAppError(Object.assign(new Error("x"), { code: "P2025" }), "r").status).toBe(500);
  });
});

describe("unknown fields", () => {
  const caught = (fn: () => unknown): AppError => {
    try {
      fn();
    } catch (err) {
      return err as AppError;
    }
    throw new Error("expected a throw");
  };

  it("names the unknown field, nested too", () => {
    const schema = z.strictObject({
      a: z.number().optional(),
      inner: z.strictObject({ b: z.number().optional() }).optional(),
    });
    expect(caught(() => parseWith(schema, { a: 1, typo: 2 }))).toMatchObject({
      param: "typo",
      message: "Unknown field 'typo'",
    });
    expect(caught(() => parseWith(schema, { inner: { bb: 1 } }))).toMatchObject({
      param: "inner.bb",
      message: "Unknown field 'inner.bb'",
    });
    expect(caught(() => parseWith(schema, { x: 1, y: 2 })).message).toBe("Unknown fields 'x', 'y'");
  });

  it("create bodies and actions refuse unknown fields but keep the aliases", () => {
    const err = caught(() => parseCreateOptions({ inactivty_timeout_seconds: 30 }, 3600));
    expect(err).toMatchObject({ status: 400, param: "inactivty_timeout_seconds" });
    expect(err.message).toContain("Unknown field 'inactivty_timeout_seconds'");
    expect(caught(() => parseCreateOptions({ display: { width: 800, hieght: 600 } }, 3600)).param).toBe(
      "display.hieght",
    );
    expect(
      parseCreateOptions(
        { max_lifetime_seconds: 60, idle_timeout_enabled: false, stealth: true, display: { scale: 2 } },
        3600,
      ),
    ).toMatchObject({ maxLifetimeSeconds: 60, autoKill: false, stealth: true });
    expect(caught(() => parseAction({ type: "click", x: 1, y: 1, buton: "left" })).param).toBe("action.buton");
    // The schemas with a transform (aliases) are strict too.
    for (const action of [
      { type: "wait", ms: 1, speed: 2 },
      { type: "scroll", dy: 1, speed: 2 },
      { type: "keypress", keys: ["a"], speed: 2 },
      { type: "drag", x1: 0, y1: 0, x2: 1, y2: 1, speed: 2 },
    ]) {
      expect([action.type, caught(() => parseAction(action)).param]).toEqual([action.type, "action.speed"]);
    }
    expect(parseAction({ type: "scroll", scroll_x: 1, scroll_y: 2 })).toMatchObject({ dx: 1, dy: 2 });
  });
});
