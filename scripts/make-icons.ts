// Renders public/icon.svg (the one drawn icon) into the raster icons browsers
// ask for: favicon.ico (16 and 32 px PNGs in an ICO container) and the 180 px
// apple-touch-icon.png. Uses the Chromium the app already finds, so no image
// tool is needed. Run after editing the SVG: npx tsx scripts/make-icons.ts
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { findChromium } from "../lib/computers/browser/find-chromium";

const publicDir = path.resolve(import.meta.dirname, "../public");
const svg = readFileSync(path.join(publicDir, "icon.svg"), "utf8");

/** An ICO file whose images are PNGs (every browser since IE 11 reads these). */
function icoOf(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

const found = findChromium();
if (!found) throw new Error("No Chromium found to render the icons with");
const browser = await chromium.launch({ executablePath: found.path });
try {
  const page = await browser.newPage();
  const render = async (size: number) => {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    return page.screenshot({ omitBackground: true, type: "png" });
  };
  const ico = icoOf([
    { size: 16, png: await render(16) },
    { size: 32, png: await render(32) },
  ]);
  writeFileSync(path.join(publicDir, "favicon.ico"), ico);
  writeFileSync(path.join(publicDir, "apple-touch-icon.png"), await render(180));
  console.log(`wrote favicon.ico (${ico.length} bytes) and apple-touch-icon.png to ${publicDir}`);
} finally {
  await browser.close();
}
