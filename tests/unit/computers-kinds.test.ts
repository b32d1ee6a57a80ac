// Kind rules that need a missing driver or a desktop row, with the registry and
// session access mocked: desktop without a driver → 501; tabs on a desktop → 400.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/api/errors";

const driverFor = vi.fn();
vi.mock("@/lib/computers/registry", () => ({ getSessionManager: () => ({ driverFor }) }));
vi.mock("@/lib/computers/access", async (original) => ({
  ...(await original<typeof import("@/lib/computers/access")>()),
  reachSession: vi.fn(async (_p: unknown, id: string) => ({
    row: { id, kind: "desktop" },
    live: {},
    handle: { act: vi.fn(async () => ({ result: { tabs: [] } })) },
  })),
}));

const { createComputer } = await import("@/lib/computers/service");
const { createTab, listTabs, switchTab, closeTab, executeAction } = await import("@/lib/computers/action-service");

const principal = { organizationId: "org", apiKeyId: "key" };
const call = { principal, id: "comp_1", requestId: "req_1", baseUrl: "http://x" };

async function error(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected an error");
}

describe("kinds", () => {
  beforeEach(() => driverFor.mockReset());

  it("answers 501 for a kind without a driver", async () => {
    driverFor.mockReturnValue(undefined);
    const err = await error(createComputer({ principal, body: { kind: "desktop" }, origin: "http://localhost:3000" }));
    expect(err.status).toBe(501);
    expect(err.message).toMatch(/desktop sessions are not available on this server yet/);
  });

  it("refuses tab calls on desktop sessions with 400", async () => {
    for (const p of [
      listTabs(call), createTab({ ...call, body: {} }), switchTab({ ...call, tabId: "tab_main" }), closeTab({ ...call, tabId: "tab_main" }),
      executeAction({ ...call, body: { action: { type: "list_tabs" } } }),
    ]) {
      const err = await error(p);
      expect(err.status).toBe(400);
      expect(err.message).toMatch(/Tabs are for browser sessions/);
    }
  });
});
