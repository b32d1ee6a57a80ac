// @needs server light
// The model API's smoke cases against both servers: the production build of
// the shared run (/v1 through the custom server's fast path) and a development
// server of this file's own (/v1 through Next's catch-all route). Both read one
// route table; this proves the path development uses is served, and the same.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { MODEL_SMOKE_CASES, type SmokeTarget } from "./models-smoke-cases";

// Next's router marks what it serves with `vary: rsc, …`; the fast path does not.
const servedByNext = async (target: SmokeTarget) =>
  (await fetch(`${target.base}/v1/models`, { headers: { authorization: `Bearer ${target.key}` } })).headers
    .get("vary")
    ?.includes("rsc") ?? false;

describe("model API smoke cases: production server", () => {
  const target: SmokeTarget = { base: inject("baseUrl"), key: inject("apiKey") };

  it("is served by the custom server's fast path", async () => {
    expect(await servedByNext(target)).toBe(false);
  });
  for (const smoke of MODEL_SMOKE_CASES) it(smoke.name, () => smoke.run(target));
});

describe("model API smoke cases: development server", () => {
  let server: TestServer | undefined;
  const target: SmokeTarget = { base: "", key: "" };

  // Development compiles each route on its first request: minutes on a small, shared machine.
  beforeAll(async () => {
    server = await startServer({ dev: true });
    target.base = server.url;
    target.key = await createOrgKey(server, "Dev Org");
    // The first /v1 request compiles the catch-all route; wait for it here, not in a test.
    await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${target.key}` } });
  }, 900_000);

  afterAll(async () => {
    await server?.destroy();
  }, 120_000);

  it("is served by Next's router", async () => {
    expect(await servedByNext(target)).toBe(true);
  });
  for (const smoke of MODEL_SMOKE_CASES) it(smoke.name, () => smoke.run(target), 300_000);
});
