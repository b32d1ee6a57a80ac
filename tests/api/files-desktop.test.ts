// @needs server desktop
// Session files with a real desktop (docs/files.md "Desktops"): uploads appear in
// /workspace/uploads, owned by and readable for the desktop user; files saved in
// ~/Downloads are listed as downloads, also one saved just before the session ends.
import { describe, expect, inject, it } from "vitest";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, waitTerminated } from "./desktop-fixtures";
import { fetchFile, sha256, startFilesSite, upload } from "./files-fixtures";
import { waitFor } from "./wait-for";

const a = () => ({ base: inject("baseUrl"), key: inject("apiKey") });
// The host's loopback as a desktop reaches it (its network namespace's gateway).
const HOST_LOOPBACK = "10.0.2.2";

describe.skipIf(!canRunDesktops)("session files in a desktop session", () => {
  it("an upload appears in /workspace/uploads (and in a folder given as path); bad paths are 400", async () => {
    const d = await createDesktop(a());
    try {
      const data = Buffer.from("a document for a desktop program\n".repeat(1000));
      const made = await upload(d.id, { name: "brief 1.txt", data, type: "text/plain" });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ name: "brief 1.txt", size: data.length, sha256: sha256(data) });
      expect(made.body.path).toBe("/workspace/uploads/brief 1.txt");
      const seen = await exec(
        a(),
        d.id,
        'stat -c "%U %a %s" "/workspace/uploads/brief 1.txt" && sha256sum < "/workspace/uploads/brief 1.txt"',
      );
      expect(seen.exit_code).toBe(0);
      const [owner, sum] = seen.stdout.trim().split("\n");
      expect(owner).toBe(`user 644 ${data.length}`);
      expect(sum!.split(" ")[0]).toBe(sha256(data));

      const nested = await upload(d.id, { name: "q1.csv", data: Buffer.from("a,b\n1,2\n") }, { path: "reports/2026" });
      expect(nested.status).toBe(201);
      expect(nested.body.path).toBe("/workspace/uploads/reports/2026/q1.csv");
      expect((await exec(a(), d.id, "cat /workspace/uploads/reports/2026/q1.csv")).stdout).toBe("a,b\n1,2\n");

      for (const path of ["../../etc", "/etc", "a/../../b"]) {
        const res = await upload(d.id, { name: "x.txt", data: Buffer.from("x") }, { path });
        expect(res.status, path).toBe(400);
        expect(res.body.error.param).toBe("path");
      }
      const names = (await api("GET", `/computers/${d.id}/files`)).body.data.map((f: any) => f.name);
      expect(names).toEqual(["brief 1.txt", "q1.csv"]);
    } finally {
      await api("DELETE", `/computers/${d.id}`);
    }
  });

  it("a download the desktop's Chromium makes lands in ~/Downloads and is listed with its sha256", {
    timeout: 180_000,
  }, async () => {
    const site = await startFilesSite();
    const d = await createDesktop(a());
    try {
      const url = `http://${HOST_LOOPBACK}:${new URL(site.url).port}/report.csv`;
      // A navigation that turns into a download: the action may report the aborted navigation; the file still comes.
      await api("POST", `/computers/${d.id}/execute`, { action: { type: "go_to_url", url } });
      const listed = await waitFor(
        async () =>
          ((await api("GET", `/computers/${d.id}/files`)).body.data as any[]).find((f) => f.source === "download"),
        { timeoutMs: 60_000, message: "the Chromium download listed" },
      );
      expect(listed).toMatchObject({ name: "quarterly report.csv", sha256: sha256(site.report) });
      const onDisk = await exec(a(), d.id, 'sha256sum < "$HOME/Downloads/quarterly report.csv"');
      expect(onDisk.stdout.split(" ")[0]).toBe(sha256(site.report));
    } finally {
      await api("DELETE", `/computers/${d.id}`);
      await site.close();
    }
  });

  it("files saved in ~/Downloads are listed as downloads, one saved at the very end too", async () => {
    const d = await createDesktop(a());
    const content = "report written by a desktop program\n".repeat(500);
    const saved = await exec(
      a(),
      d.id,
      `mkdir -p ~/Downloads && printf '%s' "${content.trim()}" > ~/Downloads/report.txt`,
    );
    expect(saved.exit_code).toBe(0);
    const expected = sha256(Buffer.from(content.trim()));
    const listed = await waitFor(
      async () =>
        ((await api("GET", `/computers/${d.id}/files`)).body.data as any[]).find((f) => f.name === "report.txt"),
      { timeoutMs: 20_000, message: "report.txt listed" },
    );
    expect(listed).toMatchObject({ source: "download", sha256: expected, mime_type: "text/plain" });

    // Saved a moment before the end: the session's end collects it.
    expect((await exec(a(), d.id, "printf 'last words' > ~/Downloads/last.txt")).exit_code).toBe(0);
    expect((await api("DELETE", `/computers/${d.id}`)).status).toBe(204);
    await waitTerminated(a(), d.id);
    const last = await waitFor(
      async () =>
        ((await api("GET", `/computers/${d.id}/files`)).body.data as any[]).find((f) => f.name === "last.txt"),
      { timeoutMs: 20_000, message: "last.txt listed after the end" },
    );
    expect((await fetchFile(d.id, last.id)).data.toString()).toBe("last words");
    const all = (await api("GET", `/computers/${d.id}/files`)).body.data as any[];
    expect(all.filter((f) => f.name === "report.txt")).toHaveLength(1);
  });
});
