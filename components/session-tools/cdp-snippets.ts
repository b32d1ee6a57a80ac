// Ready-to-copy client code for a session's CDP URL (endpoints.cdp), and when the
// URL's token stops working. The token is a capability (signCapability):
// `<expiry in Unix seconds>.<signature>`, signed until the session's expires_at.

export interface CdpSnippet {
  id: "playwright" | "puppeteer" | "python";
  label: string;
  code: string;
}

/** When the `?token=` of a CDP URL expires, or null when the URL carries none (or one of another shape). */
export function cdpTokenExpiry(url: string): Date | null {
  let token: string | null;
  try {
    token = new URL(url).searchParams.get("token");
  } catch {
    return null;
  }
  const seconds = token?.match(/^(\d{1,12})\./)?.[1];
  return seconds ? new Date(Number(seconds) * 1000) : null;
}

/** Playwright (Node), Puppeteer and Python Playwright, each connecting to `url` and reading the open page's title. */
export function cdpSnippets(url: string): CdpSnippet[] {
  const quoted = JSON.stringify(url);
  return [
    {
      id: "playwright",
      label: "Playwright",
      code: [
        `import { chromium } from "playwright";`,
        ``,
        `const browser = await chromium.connectOverCDP(${quoted});`,
        `const context = browser.contexts()[0]; // this session's cookies and tabs`,
        `const page = context.pages()[0] ?? (await context.newPage());`,
        `console.log(await page.title());`,
        `await browser.close(); // disconnects; the session keeps running`,
      ].join("\n"),
    },
    {
      id: "puppeteer",
      label: "Puppeteer",
      code: [
        `import puppeteer from "puppeteer-core";`,
        ``,
        `const browser = await puppeteer.connect({ browserWSEndpoint: ${quoted}, defaultViewport: null });`,
        `const [page] = await browser.pages();`,
        `console.log(await page.title());`,
        `await browser.disconnect(); // the session keeps running`,
      ].join("\n"),
    },
    {
      id: "python",
      label: "Python",
      code:
        `python3 -c "from playwright.sync_api import sync_playwright; b = ` +
        `sync_playwright().start().chromium.connect_over_cdp('${url}'); print(b.contexts[0].pages[0].title())"`,
    },
  ];
}
