// @needs browser-ui
// The session page's Files panel in a real browser against the real server (docs/files.md):
// upload with the keyboard-reachable button and by dropping a file, a download the session's
// page makes appearing on its own, download and delete; at 1280 and at 390 px.
import { expect, test, type Page } from "@playwright/test";
import { createServer } from "node:http";
import { listenOnLoopback } from "../api/loopback";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam, unique } from "./dashboard-helpers";

async function newKey(page: Page): Promise<string> {
  const res = await page.request.post("/api/keys", { data: { name: `files ${unique()}` } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

async function newSession(page: Page): Promise<string> {
  const res = await page.request.post("/api/sessions", { data: { kind: "browser" } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A loopback page whose link downloads a CSV. */
async function downloadSite() {
  const server = createServer((req, res) => {
    if (req.url === "/export.csv") {
      res.writeHead(200, { "content-type": "text/csv", "content-disposition": 'attachment; filename="export.csv"' });
      return void res.end("a,b\n1,2\n");
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      '<a href="/export.csv" style="position:absolute;left:0;top:0;width:300px;height:150px;display:block">export</a>',
    );
  });
  return listenOnLoopback(server);
}

for (const width of [1280, 390]) {
  test(`files panel at ${width} px: upload by button and drop, a download arrives, download and delete`, async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({
      baseURL: base(),
      viewport: { width, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await signUpNewTeam(page, "Files");
    const key = await newKey(page);
    const id = await newSession(page);
    const site = await downloadSite();
    try {
      await page.goto(`/sessions/${id}`);
      const panel = page.getByTestId("files-panel");
      await expect(panel.getByText("No files yet.")).toBeVisible();

      // The Upload button, reached and pressed with the keyboard, opens the file picker.
      const upload = panel.getByRole("button", { name: "Upload", exact: true });
      await upload.focus();
      await expect(upload).toBeFocused();
      const chooser = page.waitForEvent("filechooser");
      await page.keyboard.press("Enter");
      await (await chooser).setFiles({ name: "brief.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
      await expect(panel.getByTestId("file-row").filter({ hasText: "brief.txt" })).toContainText("upload");

      // Dropped on the panel.
      await panel.evaluate((element) => {
        const data = new DataTransfer();
        data.items.add(new File(["dropped bytes"], "dropped.txt", { type: "text/plain" }));
        element.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
        element.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
      });
      await expect(panel.getByTestId("file-row").filter({ hasText: "dropped.txt" })).toBeVisible();

      // The session's page downloads a file (driven through the API, as an agent would): it appears by itself.
      const act = (action: Record<string, unknown>) =>
        page.request.post(`/computers/${id}/execute`, {
          headers: { authorization: `Bearer ${key}` },
          data: { action },
        });
      expect((await act({ type: "go_to_url", url: site.url })).status()).toBe(200);
      expect((await act({ type: "click", x: 100, y: 75 })).status()).toBe(200);
      const downloaded = panel.getByTestId("file-row").filter({ hasText: "export.csv" });
      await expect(downloaded).toContainText("download", { timeout: 20_000 });
      await panel.scrollIntoViewIfNeeded();
      await saveScreenshot(page, testInfo, `files-panel-${width}`);
      if (width === 390) expect(await horizontalOverflow(page)).toBe(0);

      // Download through the panel: the browser saves it under its name.
      const saving = page.waitForEvent("download");
      await downloaded.getByRole("link", { name: "Download export.csv" }).click();
      expect((await saving).suggestedFilename()).toBe("export.csv");

      // Delete.
      await panel.getByRole("button", { name: "Delete brief.txt" }).click();
      await expect(panel.getByTestId("file-row").filter({ hasText: "brief.txt" })).toHaveCount(0);
      await expect(panel.getByTestId("file-row")).toHaveCount(2);
    } finally {
      await page.request.delete(`/computers/${id}`, { headers: { authorization: `Bearer ${key}` } });
      await site.close();
      await context.close();
    }
  });
}
