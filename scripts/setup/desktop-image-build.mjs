// The detached desktop-image build of `npm start` (startDesktopImageInBackground):
// the same step `npm test` runs in the foreground, host packages included.
import { ensureDesktopImage } from "./desktop-image.mjs";

try {
  await ensureDesktopImage({ required: true });
} catch (err) {
  console.error(`desktop base image: ${err.message}`);
  process.exit(1);
}
