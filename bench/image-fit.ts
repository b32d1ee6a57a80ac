// What downscaling a screenshot costs before it goes to a model
// (lib/models/images/fit-image.ts, docs/models.md "Screenshots and image size"):
// a 1280x720 PNG with text and gradients (rendered by sharp from SVG, like a
// page's screenshot in colours and edges) fitted to 1024 and 640 px, beside the
// floor of inlining it unchanged (base64 only). Prints milliseconds per image
// (p50 over the runs) and the bytes sent, as ratios to the floor of this run.
import sharp from "sharp";
import { fitImage } from "@/lib/models/images/fit-image";

const RUNS = 40;

function page(): Buffer {
  const lines = Array.from(
    { length: 24 },
    (_, i) =>
      `<text x="40" y="${60 + i * 26}" font-size="18" ` +
      `fill="#${((i * 2654435761) >>> 8).toString(16).padStart(6, "0").slice(0, 6)}">Row ${i}: the quick brown ` +
      `fox jumps over the lazy dog 0123456789</text>`,
  ).join("");
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
    <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#f4f6fb"/><stop offset="1" ` +
      `stop-color="#dde3f0"/></linearGradient></defs>
    <rect width="1280" height="720" fill="url(#g)"/><rect x="900" y="40" width="320" height="640" rx="12" ` +
      `fill="#3b5bdb"/>
    ${lines}</svg>`,
  );
}

async function timeIt(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

const png = await sharp(page()).png().toBuffer();
await fitImage(png, "image/png", 640); // loads sharp once, outside the timings
const floor = await timeIt(async () => png.toString("base64"));
console.log(`screenshot: 1280x720 PNG, ${png.length} bytes; ${RUNS} runs each`);
console.log(`floor (inline unchanged, base64 only): p50 ${floor.toFixed(2)} ms`);
for (const edge of [1024, 640]) {
  let fitted = await fitImage(png, "image/png", edge);
  const ms = await timeIt(async () => {
    fitted = await fitImage(png, "image/png", edge);
    fitted.data.toString("base64");
  });
  console.log(
    `maxImageEdge ${edge}: ${fitted.width}x${fitted.height}, ${fitted.data.length} bytes ` +
      `(${((fitted.data.length / png.length) * 100).toFixed(0)}% of the original), p50 ${ms.toFixed(2)} ms ` +
      `(${(ms / Math.max(floor, 0.01)).toFixed(1)}x the floor)`,
  );
}
