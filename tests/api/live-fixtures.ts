// Shared pieces of the live-view tests (screencast SSE, /ws) and bench/live.ts:
// a loopback site with a still page, animated pages (a moving box, the whole
// screen), an input-recording page and a key-flipped page, an SSE
// reader, and a JPEG check that reads the frame size from its SOF marker.
import { createServer, type Server } from "node:http";
import { readSse as readSseItems } from "@/lib/api/sse-reader";
import { listenOnLoopback } from "./loopback";

export interface LiveSite {
  url: string;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><style>html,body{margin:0}</style></head>` +
  `<body>${body}</body></html>`;

const PAGES: Record<string, string> = {
  // Repaints every animation frame: a moving block and a counter.
  "/animated": page(
    "animated",
    `<div id="box" style="position:absolute;width:120px;height:120px;background:#c33"></div>
    <h1 id="n" style="position:absolute;top:200px;left:20px">0</h1>
    <script>let n = 0; (function tick() { n++; const box = document.getElementById("box");
      box.style.left = (n * 7 % 600) + "px"; box.style.top = (n * 3 % 300) + "px";
      document.getElementById("n").textContent = n; requestAnimationFrame(tick); })();</script>`,
  ),
  // Never repaints once loaded: text and a few blocks (bench:live's still page).
  "/still": page(
    "still",
    `<h1 style="margin:20px">A still page</h1><p style="margin:20px">Nothing here moves.</p>
    <div style="width:300px;height:200px;margin:20px;background:linear-gradient(90deg,#36c,#c63)"></div>`,
  ),
  // Repaints the whole viewport every animation frame: hue bands and a sweeping bar on a canvas.
  "/fullscreen": page(
    "fullscreen",
    `<canvas id="c" width="1280" height="720" style="position:fixed;inset:0"></canvas>
    <script>const g = document.getElementById("c").getContext("2d"); let t = 0; (function tick() { t++;
      for (let i = 0; i < 8; i++) { g.fillStyle = "hsl(" + ((t * 5 + i * 40) % 360) + ",70%,50%)"; ` +
      `g.fillRect(0, i * 90, 1280, 90); }
      g.fillStyle = "#fff"; g.fillRect((t * 9) % 1280, 0, 40, 720); requestAnimationFrame(tick); })();</script>`,
  ),
  // Animates a small box for 600 ms, then shows full-screen noise and stops: the last repaint
  // of an animation, which the capture must show although it paces Chromium's frames.
  "/burst": page(
    "burst",
    `<div id="box" style="position:absolute;width:60px;height:60px;background:#36c"></div>
    <canvas id="c" width="1280" height="720" style="position:fixed;inset:0;display:none"></canvas>
    <script>const start = performance.now(); let n = 0; (function tick() { n++;
      document.getElementById("box").style.left = (n * 11 % 500) + "px";
      if (performance.now() - start < 600) return requestAnimationFrame(tick);
      const c = document.getElementById("c"); const g = c.getContext("2d"); const img = g.createImageData(1280, 720);
      for (let i = 0; i < img.data.length; i++) img.data[i] = i % 4 === 3 ? 255 : Math.random() * 256;
      g.putImageData(img, 0, 0); c.style.display = "block"; document.title = "burst done"; })();</script>`,
  ),
  // Records what reaches the page: clicks (button and position) and the text field's value.
  "/input": page(
    "input",
    `<textarea id="t" style="position:absolute;left:0;top:0;width:400px;height:80px"></textarea>
    <button id="b" style="position:absolute;left:0;top:120px;width:200px;height:60px">button</button>
    <pre id="log" style="position:absolute;top:220px"></pre>
    <script>const log = (s) => document.getElementById("log").append(s + "\\n");
      document.addEventListener("mousedown", (e) => log("DOWN:" + e.button + "@" + e.clientX + "," + e.clientY));
      document.getElementById("b").addEventListener("click", () => log("CLICKED"));
      document.addEventListener("keydown", (e) => log("KEY:" + e.key));
      document.getElementById("t").addEventListener("input", (e) => log("VALUE:" + e.target.value));</script>`,
  ),
  // Each key press flips the page between plain white and full-screen random noise: a white
  // frame compresses to a few KB, a noisy one to hundreds, so a frame's size alone tells
  // which state it shows, by a wide margin (bench:live's key → frame latency). The title
  // ("flip <presses> white|noise") lets the bench check through the API that keys arrive.
  "/flip": page(
    "flip",
    `<canvas id="c" width="1280" height="720" style="position:fixed;inset:0;display:none"></canvas>
    <script>const c = document.getElementById("c"); const g = c.getContext("2d"); const img = ` +
      `g.createImageData(1280, 720);
      for (let i = 0; i < img.data.length; i += 4) { img.data[i] = Math.random() * 256; img.data[i + 1] = ` +
      `Math.random() * 256;
        img.data[i + 2] = Math.random() * 256; img.data[i + 3] = 255; }
      g.putImageData(img, 0, 0); document.body.style.background = "#fff"; let on = false;
      let presses = 0; document.title = "flip 0 white";
      document.addEventListener("keydown", () => { on = !on; presses++; c.style.display = on ? "block" : "none";
        document.title = "flip " + presses + (on ? " noise" : " white"); });</script>`,
  ),
};

export async function startLiveSite(): Promise<LiveSite> {
  const server: Server = createServer((req, res) => {
    const body = PAGES[new URL(req.url ?? "/", "http://site").pathname] ?? page("none", "not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  });
  return listenOnLoopback(server);
}

/** Width and height of a complete baseline or progressive JPEG (SOI … SOF … EOI), else null. */
export function jpegSize(data: Buffer): { width: number; height: number } | null {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  if (data[data.length - 2] !== 0xff || data[data.length - 1] !== 0xd9) return null;
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1];
    const length = data.readUInt16BE(at + 2);
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Reads Server-Sent Events from a fetch response (the house reader, `readSse` of lib/api/sse-reader) until the stream
 * ends or `signal` aborts.
 */
export async function* readSse(res: Response): AsyncGenerator<SseEvent | { comment: string }> {
  for await (const item of readSseItems(res.body!)) {
    yield item.type === "comment" ? { comment: item.comment } : { event: item.event, data: item.data };
  }
}
