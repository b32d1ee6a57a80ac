// @needs nothing
import { describe, expect, it } from "vitest";
import { ENDING_GRACE_MS, holdIsLive, START_GRACE_MS } from "@/lib/computers/profiles/profile-hold";
import { parseCreateOptions } from "@/lib/computers/sessions/create-options";
import { thrownAppError } from "./thrown-app-error";

const now = new Date("2026-12-02T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const hold = { writerComputerId: "comp_a", writerSince: ago(1000) };
const row = (status: string, reason: string | null = null, endedMsAgo = 0) => ({
  id: "comp_a",
  status,
  terminationReason: reason,
  terminatedAt: status === "terminated" ? ago(endedMsAgo) : null,
});

describe("holdIsLive", () => {
  it("holds while the writer's session runs, and not without a writer", () => {
    expect(holdIsLive(hold, row("running"), now)).toBe(true);
    expect(holdIsLive(hold, row("ready"), now)).toBe(true);
    expect(holdIsLive({ writerComputerId: null, writerSince: null }, undefined, now)).toBe(false);
  });

  it("holds a start whose row is not written yet only for START_GRACE_MS", () => {
    expect(holdIsLive(hold, null, now)).toBe(true);
    expect(holdIsLive({ ...hold, writerSince: ago(START_GRACE_MS + 1) }, null, now)).toBe(false);
  });

  it("ends at once for a crashed or failed writer (a dead node's sessions), after ENDING_GRACE_MS otherwise", () => {
    expect(holdIsLive(hold, row("terminated", "crashed", 0), now)).toBe(false);
    expect(holdIsLive(hold, row("terminated", "provision_failed", 0), now)).toBe(false);
    expect(holdIsLive(hold, row("terminated", "deleted", 1000), now)).toBe(true);
    expect(holdIsLive(hold, row("terminated", "deleted", ENDING_GRACE_MS + 1), now)).toBe(false);
  });
});

describe("the create body's profile", () => {
  it("parses name and save_changes", () => {
    expect(parseCreateOptions({ profile: { name: "acme" } }, 3600).profile).toEqual({
      name: "acme",
      saveChanges: false,
    });
    expect(parseCreateOptions({ profile: { name: "a.b_c-1", save_changes: true } }, 3600).profile).toEqual({
      name: "a.b_c-1",
      saveChanges: true,
    });
  });

  it("refuses bad names, unknown fields, desktops and environment_id beside it, naming the field", () => {
    for (const name of ["", "a b", "-x", ".x", "x".repeat(65), "é"]) {
      expect(thrownAppError(() => parseCreateOptions({ profile: { name } }, 3600)).param, name).toBe("profile.name");
    }
    expect(thrownAppError(() => parseCreateOptions({ profile: { name: "a", x: 1 } }, 3600)).param).toBe("profile.x");
    expect(thrownAppError(() => parseCreateOptions({ kind: "desktop", profile: { name: "a" } }, 3600)).param).toBe(
      "profile",
    );
    expect(
      thrownAppError(() => parseCreateOptions({ environment_id: "comp_x", profile: { name: "a" } }, 3600)).param,
    ).toBe("profile");
  });
});
