// Files of a browser session's pages (docs/files.md "Browsers"): a page's file chooser
// (an <input type=file> clicked, as a model clicks) is answered with the session's
// latest upload, or the uploads a `set_files` action named for the next chooser; and
// every download a page starts is captured into the session's files once it finishes.
//
// Chromium runs as BROWSER_USER (launch-user.ts), so what it reads and writes is in a
// folder of its own under the temp dir: chosen uploads are copied there under their
// names, and the context's downloads are redirected there (Browser.setDownloadBehavior
// on a browser-level CDP session held for the session's life: Playwright's own download
// folder belongs to the server's user, which Chromium cannot write to).
import { execFileSync } from "node:child_process";
import { chown, copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, CDPSession, Download, FileChooser, Page } from "playwright-core";
import { ActionError } from "@/lib/computers/actions/action-error";
import { fileBytesPath } from "@/lib/computers/files/file-storage";
import { findFilesByIds, latestUpload, type FileRow } from "@/lib/computers/files/file-store";
import { recordDownload } from "@/lib/computers/files/record-download";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

let browserIds: { uid: number; gid: number } | null | undefined;

/** Who Chromium runs as when the server is root (launch-user.ts); null when it runs as the server's user. */
function browserUser(): { uid: number; gid: number } | null {
  if (browserIds !== undefined) return browserIds;
  if (process.getuid?.() !== 0 || getEnv().BROWSER_SANDBOX === "off") return (browserIds = null);
  try {
    const id = (flag: string) =>
      Number(execFileSync("id", [flag, getEnv().BROWSER_USER], { encoding: "utf8", stdio: "pipe" }).trim());
    browserIds = { uid: id("-u"), gid: id("-g") };
  } catch {
    browserIds = null;
  }
  return browserIds;
}

async function giveToBrowser(target: string) {
  const user = browserUser();
  if (user) await chown(target, user.uid, user.gid);
}

export class PageFiles {
  private dir: string | null = null;
  private cdp: CDPSession | null = null;
  private chosen: FileRow[] | null = null;
  private copies = 0;
  private readonly pending = new Set<Promise<void>>();
  private closed = false;

  private constructor(
    private readonly session: { id: string; organizationId: string },
    private readonly context: BrowserContext,
  ) {}

  /** Makes the session's folder and sends the context's downloads there; nothing is left when that fails. */
  static async open(
    session: { id: string; organizationId: string },
    context: BrowserContext,
    page: Page,
  ): Promise<PageFiles> {
    const files = new PageFiles(session, context);
    try {
      await files.redirectDownloads(page);
      return files;
    } catch (err) {
      await files.close();
      throw err;
    }
  }

  private async redirectDownloads(page: Page): Promise<void> {
    this.dir = await mkdtemp(path.join(tmpdir(), "cabin-session-files-"));
    await giveToBrowser(this.dir);
    const pageSession = await this.context.newCDPSession(page);
    let contextId: string | undefined;
    try {
      const { targetInfo } = (await pageSession.send("Target.getTargetInfo")) as {
        targetInfo: { browserContextId?: string };
      };
      contextId = targetInfo.browserContextId;
    } finally {
      await pageSession.detach().catch(() => {});
    }
    const browser = this.context.browser();
    if (!contextId || !browser) throw new Error("the session's browser context id is not known");
    this.cdp = await browser.newBrowserCDPSession();
    await this.cdp.send("Browser.setDownloadBehavior", {
      behavior: "allowAndName",
      browserContextId: contextId,
      downloadPath: this.dir,
      eventsEnabled: true,
    });
  }

  /** Every tab: its file choosers and downloads. */
  watch(page: Page) {
    page.on("filechooser", (chooser) => this.track(this.answer(chooser)));
    page.on("download", (download) => this.track(this.capture(download)));
  }

  private track(work: Promise<void>) {
    const entry = work.catch((err) => getLogger().warn({ err, id: this.session.id }, "session file hook failed"));
    this.pending.add(entry);
    void entry.finally(() => this.pending.delete(entry));
  }

  /** set_files: the uploads the next file chooser gets, in this order. */
  async choose(fileIds: string[]): Promise<Record<string, unknown>> {
    const rows = await findFilesByIds(this.session.id, fileIds);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = fileIds.filter((id) => !byId.has(id));
    if (missing.length) {
      throw new ActionError("invalid", `file_ids: ${missing.join(", ")} is not a file of this session`, {
        param: "file_ids",
      });
    }
    this.chosen = fileIds.map((id) => byId.get(id)!);
    return { file_ids: fileIds, names: this.chosen.map((r) => r.name) };
  }

  private async answer(chooser: FileChooser) {
    const chosen = this.chosen;
    this.chosen = null;
    let rows = chosen ?? [];
    if (!chosen) {
      const latest = await latestUpload(this.session.id);
      rows = latest ? [latest] : [];
    }
    if (!chooser.isMultiple()) rows = rows.slice(0, 1);
    if (!this.dir || this.closed) return;
    // Copies under their own names (the page sees File.name), readable by Chromium's user.
    const folder = path.join(this.dir, `chosen-${++this.copies}`);
    await mkdir(folder);
    await giveToBrowser(folder);
    const paths: string[] = [];
    for (const row of rows) {
      const copy = path.join(folder, row.name);
      await copyFile(fileBytesPath(row.computerId, row.id), copy);
      await giveToBrowser(copy);
      paths.push(copy);
    }
    await chooser.setFiles(paths, { timeout: 15_000 });
  }

  private async capture(download: Download) {
    // Playwright's path names the download by its guid; the bytes are in this session's folder under that name.
    const reported = await download.path();
    if (!this.dir || this.closed) return;
    const file = path.join(this.dir, path.basename(reported));
    try {
      await recordDownload({
        session: this.session,
        name: download.suggestedFilename(),
        sourcePath: file,
      });
    } finally {
      await rm(file, { force: true });
    }
  }

  /** At the session's end: downloads still being stored finish, then the folder goes. */
  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.race([Promise.all(this.pending), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    this.closed = true;
    await this.cdp?.detach().catch(() => {});
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
