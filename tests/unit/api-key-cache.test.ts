// @needs nothing
// The API key cache: hits skip the loader, and a revocation announced by
// another process (the CLI, through the SQLite marker file) empties it before
// the next lookup, including a lookup already in flight and announcements within one file-time tick.
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiKeyCache, type CachedApiKey } from "@/lib/auth/api-key-cache";

const entry = (apiKeyId: string): CachedApiKey => ({
  principal: { organizationId: "org", apiKeyId },
  revoked: false,
  lastUsedAt: null,
});

describe("API key cache", () => {
  let dir: string;
  let url: string;
  let server: ApiKeyCache;
  let loads: number;
  const load = (value: CachedApiKey | null) => async () => {
    loads++;
    return value;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cabin-keycache-"));
    url = `file:${path.join(dir, "cabin.db")}`;
    server = new ApiKeyCache();
    loads = 0;
  });
  afterEach(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("caches nothing before it is started", async () => {
    await server.resolve("h", load(entry("k1")));
    await server.resolve("h", load(entry("k1")));
    expect(loads).toBe(2);
  });

  it("answers repeated lookups from memory, but never caches an unknown key", async () => {
    server.start(url);
    expect(await server.resolve("h", load(entry("k1")))).toMatchObject({ principal: { apiKeyId: "k1" } });
    expect(await server.resolve("h", load(entry("other")))).toMatchObject({ principal: { apiKeyId: "k1" } });
    expect(loads).toBe(1);
    await server.resolve("unknown", load(null));
    await server.resolve("unknown", load(null));
    expect(loads).toBe(3);
  });

  it("answers a cached key synchronously, and not once a revocation is announced", async () => {
    expect(server.cached("h")).toBeUndefined(); // not started: nothing is cached
    server.start(url);
    expect(server.cached("h")).toBeUndefined();
    await server.resolve("h", load(entry("k1")));
    expect(server.cached("h")).toMatchObject({ principal: { apiKeyId: "k1" } });
    new ApiKeyCache().revoked(url);
    expect(server.cached("h")).toBeUndefined();
  });

  it("forgets everything when another process announces a revocation", async () => {
    server.start(url);
    await server.resolve("h", load(entry("k1")));
    new ApiKeyCache().revoked(url); // what the operator CLI does after `keys revoke`
    const revoked = { ...entry("k1"), revoked: true };
    expect(await server.resolve("h", load(revoked))).toEqual(revoked);
    expect(loads).toBe(2);
  });

  it("does not cache a lookup that a revocation overlapped", async () => {
    server.start(url);
    // The row is read, then the key is revoked before the lookup returns.
    await server.resolve("h", async () => {
      loads++;
      server.revoked(url);
      return entry("stale");
    });
    const fresh = { ...entry("k1"), revoked: true };
    expect(await server.resolve("h", load(fresh))).toEqual(fresh);
    expect(loads).toBe(2);
  });

  it("sees each of several revocations announced within one file-timestamp tick", async () => {
    server.start(url);
    const cli = new ApiKeyCache();
    const marker = `${path.join(dir, "cabin.db")}-revocations`;
    const tick = new Date("2026-01-01T00:00:00Z");
    for (let round = 0; round < 5; round++) {
      await server.resolve("h", load(entry("k1")));
      expect(server.cached("h")).toBeDefined();
      cli.revoked(url);
      // Kernels without fine-grained file times stamp every write within one tick (a few ms) alike:
      // pinned here, so only the marker's size and inode can tell the announcements apart.
      utimesSync(marker, tick, tick);
      expect(server.cached("h"), `revocation ${round + 1} went unseen`).toBeUndefined();
    }
  });

  it("starts the marker over once it is large, and that announcement is seen too", async () => {
    const marker = `${path.join(dir, "cabin.db")}-revocations`;
    writeFileSync(marker, "x".repeat(64 * 1024));
    server.start(url);
    await server.resolve("h", load(entry("k1")));
    new ApiKeyCache().revoked(url);
    expect(statSync(marker).size).toBeLessThan(100);
    expect(server.cached("h")).toBeUndefined();
  });
});
