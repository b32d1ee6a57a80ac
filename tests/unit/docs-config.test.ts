// @needs nothing
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_PAGE, renderPage, renderTable, settings } from "@/scripts/docs-config";

describe("docs/configuration.md", () => {
  it("gives every setting of lib/env.ts a description", () => {
    const missing = settings()
      .filter((s) => !s.description?.trim())
      .map((s) => s.name);
    expect(missing, 'add a .describe("…") text to these settings in lib/env.ts').toEqual([]);
  });

  it("holds the table the schema renders (run `npm run docs:config` after changing lib/env.ts)", () => {
    const page = readFileSync(CONFIG_PAGE, "utf8");
    expect(renderPage(page)).toBe(page);
  });

  it("takes defaults and accepted values from the schema", () => {
    const table = renderTable();
    expect(table).toContain("| `PORT` | `3000` | integer 0–65535 |");
    expect(table).toContain("| `DESKTOP_ENABLED` | `true` | 1/0, true/false, yes/no |");
    expect(table).toContain("| `SIGNUP` | `invite` | `open`, `invite`, `closed` |");
    expect(table).toContain("| `DATABASE_URL` | unset | text |");
    expect(table).toContain("| `DESKTOP_IMAGE_MIRROR` | `http://deb.debian.org/debian` | URL |");
  });

  it("refuses a page without the markers", () => {
    expect(() => renderPage("# Configuration\n")).toThrow(/markers/);
  });
});
