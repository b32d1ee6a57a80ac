// Live-view input for a browser session (GET /computers/{id}/ws): applied to
// the main tab through Playwright's mouse and keyboard (CDP Input.dispatch*
// underneath). It bypasses the session's ActionQueue on purpose: a human's
// pointer must not wait behind a slow navigation.
import type { Page } from "playwright-core";
import { ActionError } from "@/lib/computers/actions/action-error";
import type { LiveInput, LiveInputCapability } from "@/lib/computers/driver";
import { toPlaywrightKey } from "@/lib/computers/browser/keys";

export class BrowserLiveInput implements LiveInputCapability {
  constructor(private readonly mainPage: () => Page | undefined) {}

  async send(input: LiveInput): Promise<void> {
    const page = this.mainPage();
    if (!page || page.isClosed()) throw new ActionError("failed", "This session has no open tab");
    switch (input.type) {
      case "pointer":
        await page.mouse.move(input.x, input.y);
        if (input.action === "down") await page.mouse.down({ button: input.button ?? "left" });
        if (input.action === "up") await page.mouse.up({ button: input.button ?? "left" });
        return;
      case "wheel":
        await page.mouse.move(input.x, input.y);
        await page.mouse.wheel(input.dx, input.dy);
        return;
      case "key": {
        const key = toPlaywrightKey(input.key, "key");
        await (input.action === "down" ? page.keyboard.down(key) : page.keyboard.up(key));
        return;
      }
      case "text":
        await page.keyboard.insertText(input.text);
        return;
    }
  }
}
