// Stored screenshots (docs/contract.md "Screenshots"): a screenshot is named by its id (`ScreenshotRef`);
// its capability URL is built from that id, never parsed back into one.
export { getScreenshotFile, screenshotUrl } from "@/lib/computers/screenshots/screenshot-links";
export { keepScreenshot, readScreenshot } from "@/lib/computers/screenshots/screenshots";
export { verifyScreenshotToken, type ScreenshotRef } from "@/lib/computers/screenshots/screenshot-token";
export { ownScreenshotImages } from "@/lib/computers/screenshots/own-screenshot-links";
