import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/api/errors";
import { parseCreateOptions } from "@/lib/computers/sessions/create-options";
import { thrownAppError } from "./thrown-app-error";

const PLAN = 3600;

const fails = (body: unknown): AppError => thrownAppError(() => parseCreateOptions(body, PLAN));

describe("parseCreateOptions", () => {
  it("fills every default of §2.2", () => {
    expect(parseCreateOptions({}, PLAN)).toEqual({
      kind: "browser",
      maxLifetimeSeconds: PLAN,
      inactivityTimeoutSeconds: 120,
      autoKill: true,
      display: { width: 1280, height: 720, scale: 1 },
      contextId: null,
      persistent: false,
      environmentId: null,
      useAdvancedProxy: false,
      stealth: false,
      record: false,
    });
    expect(parseCreateOptions(undefined, PLAN).kind).toBe("browser");
    expect(parseCreateOptions({ record: true }, PLAN).record).toBe(true);
  });

  it("accepts the aliases; the newer name wins when both are given", () => {
    expect(parseCreateOptions({ max_lifetime_seconds: 60 }, PLAN).maxLifetimeSeconds).toBe(60);
    expect(parseCreateOptions({ timeout_seconds: 30, max_lifetime_seconds: 60 }, PLAN).maxLifetimeSeconds).toBe(60);
    expect(parseCreateOptions({ idle_timeout_enabled: false }, PLAN).autoKill).toBe(false);
    expect(parseCreateOptions({ auto_kill: false, idle_timeout_enabled: true }, PLAN).autoKill).toBe(true);
    expect(parseCreateOptions({ stealth: true, display: { scale: 2 } }, PLAN)).toMatchObject({
      stealth: true,
      display: { width: 1280, height: 720, scale: 2 },
    });
  });

  it("keeps the given values", () => {
    const o = parseCreateOptions(
      {
        kind: "browser",
        timeout_seconds: 10,
        inactivity_timeout_seconds: 5,
        auto_kill: false,
        display: { width: 800, height: 600 },
        context_id: "run-42",
        persistent: true,
        environment_id: "comp_ab",
        use_advanced_proxy: true,
      },
      PLAN,
    );
    expect(o).toMatchObject({
      maxLifetimeSeconds: 10,
      inactivityTimeoutSeconds: 5,
      autoKill: false,
      contextId: "run-42",
      persistent: true,
      environmentId: "comp_ab",
      useAdvancedProxy: true,
      display: { width: 800, height: 600, scale: 1 },
    });
  });

  it("enforces display bounds 320–3840 × 240–2160, naming the field", () => {
    expect(parseCreateOptions({ display: { width: 320, height: 240 } }, PLAN).display).toMatchObject({
      width: 320,
      height: 240,
    });
    expect(parseCreateOptions({ display: { width: 3840, height: 2160 } }, PLAN).display).toMatchObject({
      width: 3840,
      height: 2160,
    });
    expect(fails({ display: { width: 319 } }).param).toBe("display.width");
    expect(fails({ display: { width: 3841 } }).param).toBe("display.width");
    expect(fails({ display: { height: 239 } }).param).toBe("display.height");
    expect(fails({ display: { height: 2161 } }).param).toBe("display.height");
    expect(fails({ display: { width: 1000.5 } }).param).toBe("display.width");
    expect(fails({ display: { scale: 0 } }).param).toBe("display.scale");
  });

  it("rejects wrong types and ranges", () => {
    expect(fails({ kind: "vm" }).param).toBe("kind");
    expect(fails({ auto_kill: "yes" }).param).toBe("auto_kill");
    expect(fails({ timeout_seconds: 0 }).param).toBe("timeout_seconds");
    expect(fails({ timeout_seconds: 1.5 }).param).toBe("timeout_seconds");
    expect(fails({ inactivity_timeout_seconds: -1 }).param).toBe("inactivity_timeout_seconds");
    expect(fails({ persistent: 1 }).param).toBe("persistent");
    expect(fails([]).status).toBe(400);
  });

  it("caps the lifetime at the plan maximum", () => {
    const err = fails({ timeout_seconds: PLAN + 1 });
    expect(err.param).toBe("timeout_seconds");
    expect(err.message).toContain("plan maximum");
    expect(fails({ max_lifetime_seconds: PLAN + 1 }).param).toBe("max_lifetime_seconds");
  });

  it("refuses browser-only options on desktops", () => {
    expect(fails({ kind: "desktop", use_advanced_proxy: true }).param).toBe("use_advanced_proxy");
    expect(fails({ kind: "desktop", stealth: true }).param).toBe("stealth");
    expect(parseCreateOptions({ kind: "desktop" }, PLAN).kind).toBe("desktop");
  });
});
