// @needs server postgres chromium
// The limits of session files on a server of their own (docs/files.md "Limits"): one file past
// FILES_MAX_BYTES is a 413 naming it, the organization's storage past ORG_STORAGE_MAX_BYTES
// is a 413 saying so, and a refused upload leaves no row and no bytes.
import { readdirSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createSession, type Target } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { upload } from "./files-fixtures";

const MiB = 1024 * 1024;

describe("session file limits", () => {
  let server: TestServer;
  let t: Target;
  beforeAll(async () => {
    server = await startServer({
      env: {
        FILES_MAX_BYTES: String(MiB),
        ORG_STORAGE_MAX_BYTES: String(2.5 * MiB),
        BROWSER_STANDBY_MAX_CONTEXTS: "0",
      },
    });
    t = { base: server.url, key: await createOrgKey(server, "Limits") };
  });
  afterAll(async () => {
    await server?.destroy();
  });

  const storedFiles = (id: string) => {
    try {
      return readdirSync(path.join(server.dataDir, "files", id));
    } catch {
      return [];
    }
  };

  it("past FILES_MAX_BYTES: 413 naming the limit, nothing kept; past the organization's quota: 413", async () => {
    const s = await createSession({}, t);
    const big = await upload(s.id, { name: "big.bin", data: randomBytes(MiB + 1) }, t);
    expect(big.status).toBe(413);
    expect(big.body.error.message).toContain("FILES_MAX_BYTES");
    expect(big.body.error.message).toContain(String(MiB));
    expect((await api("GET", `/computers/${s.id}/files`, undefined, t)).body.data).toEqual([]);
    expect(storedFiles(s.id)).toEqual([]);

    // Exactly the limit is accepted.
    for (const name of ["one.bin", "two.bin"]) {
      expect((await upload(s.id, { name, data: randomBytes(MiB) }, t)).status).toBe(201);
    }
    const full = await upload(s.id, { name: "three.bin", data: randomBytes(MiB) }, t);
    expect(full.status).toBe(413);
    expect(full.body.error.message).toContain("ORG_STORAGE_MAX_BYTES");
    const names = (await api("GET", `/computers/${s.id}/files`, undefined, t)).body.data.map((f: any) => f.name);
    expect(names).toEqual(["one.bin", "two.bin"]);
    expect(storedFiles(s.id)).toHaveLength(2);

    // Deleting makes room again.
    const first = (await api("GET", `/computers/${s.id}/files`, undefined, t)).body.data[0];
    expect((await api("DELETE", `/computers/${s.id}/files/${first.id}`, undefined, t)).status).toBe(204);
    expect((await upload(s.id, { name: "three.bin", data: randomBytes(MiB) }, t)).status).toBe(201);
    await api("DELETE", `/computers/${s.id}`, undefined, t);
  });
});
