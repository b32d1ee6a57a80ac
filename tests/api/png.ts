// The PNGs the servers return (screenshots), decoded for tests that read pixels: 8-bit,
// non-interlaced, grey / RGB / RGBA / palette (ImageMagick writes a palette for a screen of few
// colours; it is expanded to RGB). Other PNGs are refused, not misread.
import { inflateSync } from "node:zlib";

export interface DecodedPng {
  width: number;
  height: number;
  /** Bytes per pixel: 1 (grey), 2 (grey + alpha), 3 (RGB, also from a palette) or 4 (RGBA). */
  channels: number;
  /** Row after row, `width * channels` bytes each, the filters undone. */
  pixels: Buffer;
}

/** Colour type → bytes per stored pixel (a palette image stores one index). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [da, db, dc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return da <= db && da <= dc ? a : db <= dc ? b : c;
}

export function decodePng(png: Buffer): DecodedPng {
  if (png.subarray(1, 4).toString() !== "PNG") throw new Error("not a PNG");
  let off = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  let palette: Buffer | undefined;
  const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.subarray(off + 4, off + 8).toString();
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = CHANNELS[data[9]] ?? 0;
      if (data[8] !== 8 || !channels || data[12] !== 0)
        throw new Error(`unsupported PNG: bit depth ${data[8]}, colour type ${data[9]}, interlace ${data[12]}`);
    }
    if (type === "PLTE") palette = data;
    if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[row + x - channels] : 0;
      const b = y > 0 ? pixels[row - stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[row - stride + x - channels] : 0;
      const add = filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? paeth(a, b, c) : 0;
      pixels[row + x] = (line[x] + add) & 255;
    }
  }
  if (!palette) return { width, height, channels, pixels };
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) palette.copy(rgb, i * 3, pixels[i] * 3, pixels[i] * 3 + 3);
  return { width, height, channels: 3, pixels: rgb };
}
