// @needs server postgres chromium desktop
// Persistent desktops: a Debian package installed with apt, a file in the home
// directory and a changed file under /etc survive the session's end and come back in
// a new session through environment_id; a non-persistent restore discards its own
// changes; a snapshot of another base image version is a clear 409.
import { createRequire } from "node:module";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, useDesktopServer, waitTerminated } from "./desktop-fixtures";

/** Test set-up only: makes a saved state claim another base image version, as an old snapshot would. */
async function setBaseVersion(databaseUrl: string, computerId: string, version: string) {
  if (databaseUrl.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('UPDATE computer_states SET "baseVersion" = $1 WHERE "computerId" = $2', [version, computerId]);
    await client.end();
    return;
  }
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const db = new Database(databaseUrl.replace(/^file:/, ""));
  db.prepare('UPDATE computer_states SET "baseVersion" = ? WHERE "computerId" = ?').run(version, computerId);
  db.close();
}

describe.skipIf(!canRunDesktops)("desktop persistence", () => {
  const s = useDesktopServer();

  it("keeps an installed package, a home file and /etc changes across sessions", { timeout: 600_000 }, async () => {
    const first = await createDesktop(s.a, { persistent: true });
    const install = await exec(
      s.a,
      first.id,
      "sudo apt-get update -q >/dev/null && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q cowsay " +
        ">/dev/null && echo installed",
      { timeout_seconds: 480 },
    );
    expect(install.stdout + install.stderr).toMatch(/installed/);
    await exec(
      s.a,
      first.id,
      "echo kept-in-home > ~/notes.txt && echo '# cabin-persisted' | sudo tee -a /etc/bash.bashrc >/dev/null && sudo " +
        "rm /etc/motd",
    );
    expect((await api("DELETE", `/computers/${first.id}`, undefined, s.a)).status).toBe(204);
    expect(
      (await api("GET", "/computers?type=persistent", undefined, s.a)).body.map((r: { id: string }) => r.id),
    ).toContain(first.id);

    // Restored without persistent: everything is there, and its own changes are dropped at the end.
    const second = await createDesktop(s.a, { environment_id: first.id });
    // A deletion (an overlay whiteout) persists too.
    const check =
      "/usr/games/cowsay moo | grep -c moo; cat ~/notes.txt; tail -1 /etc/bash.bashrc; ls /etc/motd ~/scratch.txt 2>&1";
    const restored = await exec(s.a, second.id, check);
    expect(restored.stdout).toMatch(
      /^1\nkept-in-home\n# cabin-persisted\n.*motd.*No such file.*scratch.txt.*No such file/s,
    );
    await exec(s.a, second.id, "echo scratch > ~/scratch.txt && sudo rm /etc/bash.bashrc");
    await api("DELETE", `/computers/${second.id}`, undefined, s.a);

    const third = await createDesktop(s.a, { environment_id: first.id });
    expect((await exec(s.a, third.id, check)).stdout).toMatch(
      /^1\nkept-in-home\n# cabin-persisted\n.*motd.*No such file.*scratch.txt.*No such file/s,
    );
    await api("DELETE", `/computers/${third.id}`, undefined, s.a);
  });

  it("saves at every end: idle kill of a persistent desktop keeps its files", async () => {
    const d = await createDesktop(s.a, { persistent: true, inactivity_timeout_seconds: 3 });
    await exec(s.a, d.id, "echo saved-on-idle > ~/idle.txt");
    const ended = await waitTerminated(s.a, d.id);
    expect(ended.termination_reason).toBe("inactivity");
    const next = await createDesktop(s.a, { environment_id: d.id });
    expect((await exec(s.a, next.id, "cat ~/idle.txt")).stdout).toBe("saved-on-idle\n");
    await api("DELETE", `/computers/${next.id}`, undefined, s.a);
  });

  it("refuses a snapshot of another base image version with 409", async () => {
    const d = await createDesktop(s.a, { persistent: true });
    await exec(s.a, d.id, "echo x > ~/x.txt");
    await api("DELETE", `/computers/${d.id}`, undefined, s.a);
    // DELETE answers before the final save; the persistent list waits for pending saves.
    expect(
      (await api("GET", "/computers?type=persistent", undefined, s.a)).body.map((c: { id: string }) => c.id),
    ).toContain(d.id);
    await setBaseVersion(s.server.databaseUrl, d.id, "bookworm-000000000000");
    const before = (await api("GET", "/computers", undefined, s.a)).body.length;
    const res = await api("POST", "/computers", { kind: "desktop", environment_id: d.id }, s.a);
    expect(res.status).toBe(409);
    expect(res.body.error.param).toBe("environment_id");
    expect(res.body.error.message).toMatch(/base image bookworm-000000000000.*this server runs/);
    // Refused before anything was made: no session row (not even a provision_failed one).
    expect((await api("GET", "/computers", undefined, s.a)).body.length).toBe(before);
    // A browser session cannot start from a desktop snapshot either.
    expect((await api("POST", "/computers", { kind: "browser", environment_id: d.id }, s.a)).status).toBe(400);
  });
});
