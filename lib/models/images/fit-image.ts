// Downscales an image to a longest-edge bound with sharp (libvips, prebuilt
// for this platform in its npm package; no ffmpeg on a plain install, and a
// Chromium-side scale would not cover images clients send): tens of
// milliseconds for a 1280x720 screenshot, once per screenshot since inline
// images are cached (bench/image-fit.ts measures it). PNG compression level 3:
// as small as level 6 within a few percent, at a fifth of its time here. The
// format is kept (PNG stays PNG), so the model sees the kind of image sent.
import { AppError } from "@/lib/api/errors";

export interface FittedImage {
  data: Buffer;
  mime: string;
  width: number;
  height: number;
}

type Sharp = typeof import("sharp").default;
let sharpModule: Promise<Sharp> | undefined;

/** Loaded on first use: most requests carry no image. */
const loadSharp = () => (sharpModule ??= import("sharp").then((m) => m.default));

const unreadable = (cause: unknown) =>
  new AppError("invalid_request", "An image in the request could not be read as PNG, JPEG, WebP or GIF", {
    detail: "invalid_image_format",
    cause,
  });

/** The image within `maxEdge` pixels on its longest side (unchanged when it already fits or no bound is set). */
export async function fitImage(data: Buffer, mime: string, maxEdge: number | undefined): Promise<FittedImage> {
  const sharp = await loadSharp();
  let meta: { width?: number; height?: number; format?: string };
  try {
    meta = await sharp(data).metadata();
  } catch (err) {
    throw unreadable(err);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!maxEdge || Math.max(width, height) <= maxEdge) return { data, mime, width, height };
  const image = sharp(data).resize({ width: maxEdge, height: maxEdge, fit: "inside" });
  const encoded = meta.format === "jpeg" ? image.jpeg({ quality: 85 }) : image.png({ compressionLevel: 3 });
  try {
    const { data: out, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      data: out,
      mime: meta.format === "jpeg" ? "image/jpeg" : "image/png",
      width: info.width,
      height: info.height,
    };
  } catch (err) {
    throw unreadable(err);
  }
}
