// @needs server chromium
// Session files with a real Chromium (docs/files.md): uploads attached by a pixel click on a
// page's file input, set_files, downloads captured with their hash and read after the end,
// names refused, another organization's 404, delete.
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, execute, html, useSessionSuite, waitFor } from "./computers-fixtures";
import { chosenFiles, fetchFile, multipart, sha256, startFilesSite, upload } from "./files-fixtures";

const suite = useSessionSuite(startFilesSite);

/** Polls until `fn` gives a value (not null). */
async function until<T>(what: string, fn: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  return (await waitFor(what, fn, (v) => v !== null, timeoutMs)) as T;
}

const listOf = (id: string, key?: string) => api("GET", `/computers/${id}/files`, undefined, { key });

describe("session files in a browser session", () => {
  it("a 2 MiB upload reaches a page's file input through a pixel click, with its name, size and hash", async () => {
    const s = await suite.session();
    const data = randomBytes(2 * 1024 * 1024);
    const made = await upload(s.id, { name: "scan 2026.bin", data });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^file_[0-9a-f]{24}$/),
      name: "scan 2026.bin",
      size: data.length,
      sha256: sha256(data),
      mime_type: "application/octet-stream",
      source: "upload",
      created_at: expect.any(String),
    });
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/chooser` });
    expect((await execute(s.id, { type: "click", x: 200, y: 100 })).status).toBe("success");
    const got = await until("the page's file input", async () => chosenFiles(await html(s.id)));
    expect(got).toEqual([{ name: "scan 2026.bin", size: data.length, sha256: sha256(data) }]);

    // set_files picks an earlier upload for the next chooser; the latest one is used again after it.
    const other = await upload(s.id, { name: "notes.txt", data: Buffer.from("later upload") });
    expect(other.status).toBe(201);
    const chose = await execute(s.id, { type: "set_files", file_ids: [made.body.id] });
    expect(chose).toMatchObject({ status: "success" });
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/chooser?again` });
    await execute(s.id, { type: "click", x: 200, y: 100 });
    expect(await until("the page's file input", async () => chosenFiles(await html(s.id)))).toEqual([
      { name: "scan 2026.bin", size: data.length, sha256: sha256(data) },
    ]);
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/chooser?third` });
    await execute(s.id, { type: "click", x: 200, y: 100 });
    expect((await until("the page's file input", async () => chosenFiles(await html(s.id))))![0]!.name).toBe(
      "notes.txt",
    );
    const unknown = await api("POST", `/computers/${s.id}/execute`, {
      action: { type: "set_files", file_ids: ["file_0123456789abcdef01234567"] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      param: "file_ids",
      message: expect.stringMatching(/not a file of this session/),
    });
  });

  it("lists a download the page starts with its sha256, fetchable after the session ended", async () => {
    const s = await suite.session();
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/download` });
    await execute(s.id, { type: "click", x: 100, y: 100 });
    const listed = await until("the download listed", async () => {
      const files = (await listOf(s.id)).body.data as any[];
      return files.find((f) => f.source === "download") ?? null;
    });
    expect(listed).toMatchObject({
      name: "quarterly report.csv",
      size: suite.site.report.length,
      sha256: sha256(suite.site.report),
      mime_type: "text/csv",
      source: "download",
    });
    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    await until("the session ended", async () =>
      (await api("GET", `/computers/${s.id}`)).body.status === "terminated" ? true : null,
    );
    const after = await listOf(s.id);
    expect(after.status).toBe(200);
    expect(after.body.data.map((f: any) => f.id)).toContain(listed.id);
    const bytes = await fetchFile(s.id, listed.id);
    expect(bytes.status).toBe(200);
    expect(sha256(bytes.data)).toBe(sha256(suite.site.report));
    expect(bytes.headers.get("content-type")).toBe("text/csv");
    expect(bytes.headers.get("content-disposition")).toContain("quarterly%20report.csv");
  });

  it("refuses names that are paths, hold control characters or are too long, and keeps nothing", async () => {
    const s = await suite.session();
    for (const name of ["../escape.txt", "/etc/passwd", "a/b.txt", "..", "bell\u0007.txt", "x".repeat(300)]) {
      const res = await upload(s.id, { name, data: Buffer.from("nope") });
      expect(res.status, name).toBe(400);
      expect(res.body.error.param).toBe("file");
    }
    // A form without a file part, and a body that is not a form.
    const noFile = multipart([{ name: "path", data: "x" }]);
    const res = await fetch(`${inject("baseUrl")}/computers/${s.id}/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${inject("apiKey")}`, "content-type": noFile.contentType },
      body: noFile.body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/no 'file' part/);
    const json = await api("POST", `/computers/${s.id}/files`, { file: "x" });
    expect(json.status).toBe(400);
    expect((await listOf(s.id)).body.data).toEqual([]);
  });

  it("another organization gets 404 for the session's files; a deleted file is gone", async () => {
    const s = await suite.session();
    const made = await upload(s.id, { name: "private.txt", data: Buffer.from("org A only") });
    expect(made.status).toBe(201);
    const keyB = inject("apiKeyB");
    expect((await listOf(s.id, keyB)).status).toBe(404);
    expect((await fetchFile(s.id, made.body.id, { key: keyB })).status).toBe(404);
    expect((await api("DELETE", `/computers/${s.id}/files/${made.body.id}`, undefined, { key: keyB })).status).toBe(
      404,
    );
    expect((await upload(s.id, { name: "intruder.txt", data: Buffer.from("x") }, { key: keyB })).status).toBe(404);
    expect((await fetchFile(s.id, made.body.id)).data.toString()).toBe("org A only");

    expect((await api("DELETE", `/computers/${s.id}/files/${made.body.id}`)).status).toBe(204);
    expect((await fetchFile(s.id, made.body.id)).status).toBe(404);
    expect((await listOf(s.id)).body.data).toEqual([]);
  });
});
