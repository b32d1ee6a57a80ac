// @needs nothing
import { describe, expect, it } from "vitest";
import { configuredOrigin as publicUrl } from "@/lib/api/public-url";
import { databaseUrl, loadEnv } from "@/lib/env";

describe("environment validation", () => {
  it("applies defaults on an empty environment", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.PLAN_MAX_LIFETIME_SECONDS).toBe(3600);
    expect(env.MODEL_PREFIX).toBe("svc");
    expect(databaseUrl(env)).toMatch(/^file:.*data\/cabin\.db$/);
    expect(publicUrl(env)).toBe("http://localhost:3000");
  });

  it("defaults sign-up to the first account then invitations, and refuses an unknown policy", () => {
    expect(loadEnv({}).SIGNUP).toBe("invite");
    expect(loadEnv({ SIGNUP: "open" }).SIGNUP).toBe("open");
    expect(() => loadEnv({ SIGNUP: "sometimes" })).toThrow(/SIGNUP/);
  });

  it("names every bad variable in one error", () => {
    expect(() => loadEnv({ PORT: "abc", ADVANCED_PROXY_URL: "not a url" })).toThrow(
      /PORT[\s\S]*ADVANCED_PROXY_URL|ADVANCED_PROXY_URL[\s\S]*PORT/,
    );
  });

  it("reads booleans and a PostgreSQL URL", () => {
    const env = loadEnv({ CI: "false", DATABASE_URL: "postgresql://u@h/db", PUBLIC_URL: "https://cabin.example/" });
    expect(env.CI).toBe(false);
    expect(databaseUrl(env)).toBe("postgresql://u@h/db");
    expect(publicUrl(env)).toBe("https://cabin.example");
  });
});
