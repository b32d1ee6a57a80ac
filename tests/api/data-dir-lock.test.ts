// @needs server chromium
// Two servers on one data folder (docs/operations.md "One server per data folder"):
// the processes and folders a server reaps are found by its data folder, so a second
// server there (another port, another database) must not start at all. It refuses,
// naming the folder and the holder, and the first server's sessions and Chromium are
// untouched; once the holder is gone (kill -9), a server starts on that folder again.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { freshDatabase } from "./test-databases";
import { chromiumPidsOf, createSession, html } from "./computers-fixtures";
import { waitFor } from "./wait-for";

/**
 * A server's Chromium processes once its pool settled: the same in two reads a second apart (after a create the
 * pool starts a spare and may close one of its own, which is not the second server's doing).
 */
async function settledBrowsers(dataDir: string): Promise<number[]> {
  let previous = "";
  const read = await waitFor(
    () => {
      const pids = chromiumPidsOf(dataDir).sort((a, b) => a - b);
      const same = JSON.stringify(pids) === previous;
      previous = JSON.stringify(pids);
      return { pids, same };
    },
    { until: (r) => r.same && r.pids.length > 0, intervalMs: 1_000, timeoutMs: 30_000, message: "Chromium to settle" },
  );
  return read.pids;
}

let first: TestServer;
let otherDatabase: string;
const otherDir = mkdtempSync(path.join(os.tmpdir(), "cabin-test-other-db-"));

beforeAll(async () => {
  first = await startServer();
  otherDatabase = await freshDatabase(otherDir);
}, 120_000);

afterAll(async () => {
  await first?.destroy();
  rmSync(otherDir, { recursive: true, force: true });
}, 120_000);

describe("a second server on the same data folder", () => {
  it("refuses to start, and the first server's sessions and browsers are untouched", async () => {
    const key = await createOrgKey(first, "Lock Org");
    const target = { base: first.url, key };
    const session = await createSession({ kind: "browser" }, target);
    expect(await html(session.id, target)).toContain("<html");
    const browsers = await settledBrowsers(first.dataDir);

    await expect(startServer({ dataDir: first.dataDir, databaseUrl: otherDatabase })).rejects.toThrow(
      new RegExp(`DATA_DIR ${first.dataDir} is in use by the Cabin server with pid ${first.process.pid}`),
    );

    // The same Chromium processes, and the session still answers.
    expect(chromiumPidsOf(first.dataDir)).toEqual(expect.arrayContaining(browsers));
    expect(await html(session.id, target)).toContain("<html");
  });

  it("starts on the folder once its holder is gone (a kill -9 leaves a stale lock)", async () => {
    await first.kill("SIGKILL");
    const next = await startServer({ dataDir: first.dataDir, databaseUrl: otherDatabase });
    try {
      const health = await fetch(`${next.url}/api/health`);
      expect([200, 503]).toContain(health.status);
      expect(next.process.exitCode).toBeNull();
    } finally {
      await next.stop();
    }
  });
});
