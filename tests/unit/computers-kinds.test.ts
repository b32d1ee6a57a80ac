// @needs nothing
// Kind rules that need a missing driver or a desktop row, with the registry and
// session access mocked: desktop without a driver → 501; tabs on a desktop reach its handle
// (its own Chromium, docs/desktop-browsing.md) with the browser sessions' shapes.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/api/errors";

const driverFor = vi.fn();
vi.mock("@/lib/computers/registry", () => ({
  getSessionManager: () => ({ driverFor, events: { publish: () => {}, watched: () => false } }),
}));
vi.mock("@/lib/computers/sessions/access", async (original) => ({
  ...(await original<typeof import("@/lib/computers/sessions/access")>()),
  reachSession: vi.fn(async (_p: unknown, id: string) => ({
    row: { id, kind: "desktop" },
    live: {},
    handle: { act: vi.fn(async () => ({ result: { tabs: [] } })) },
  })),
}));

const { createComputer } = await import("@/lib/computers/service");
const { createTab, listTabs, switchTab, closeTab, executeAction } = await import(
  "@/lib/computers/actions/action-service"
);

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

  it("hands tab calls on desktop sessions to the handle, with the browser sessions' shapes", async () => {
    expect(await listTabs(call)).toMatchObject({ status: "success", result: { tabs: [] }, request_id: "req_1" });
    expect(await switchTab({ ...call, tabId: "tab_main" })).toMatchObject({
      status: "success",
      active_tab: "tab_main",
    });
    expect(await closeTab({ ...call, tabId: "tab_main" })).toMatchObject({ status: "success", closed_tab: "tab_main" });
    expect(await createTab({ ...call, body: {} })).toMatchObject({ status: "success" });
    expect(await executeAction({ ...call, body: { action: { type: "list_tabs" } } })).toMatchObject({
      status: "success",
      result: { tabs: [] },
    });
  });
});
