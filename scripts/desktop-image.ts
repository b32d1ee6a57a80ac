// `npm run desktop:image [-- --force]`: builds the desktop base image of the current
// version when it is missing (minutes: Debian packages are downloaded and unpacked),
// or says it is up to date. Prints progress; exit code 1 with the reason on failure.
import { parseArgs } from "node:util";
import { buildImage } from "../lib/computers/desktop/image-build";
import { findImage, imageBuildInProgress, imagesDir, imageVersion } from "../lib/computers/desktop/image";

const { values } = parseArgs({
  options: { force: { type: "boolean" }, "print-version": { type: "boolean" }, status: { type: "boolean" } },
});
if (values["print-version"]) {
  console.log(imageVersion());
  process.exit(0);
}
// `--status`: "ready <version>", "building <version> (pid …: step)" or "missing <version>", for the set-up.
if (values.status) {
  const building = imageBuildInProgress();
  console.log(
    findImage()
      ? `ready ${imageVersion()}`
      : building
        ? `building ${imageVersion()} (pid ${building.pid}: ${building.step})`
        : `missing ${imageVersion()}`,
  );
  process.exit(0);
}
try {
  // Progress goes to stderr, the one-line outcome to stdout (`ensureDesktopImage` reads it).
  const image = await buildImage({ force: values.force, log: (line) => console.error(line) });
  console.log(
    image.built
      ? `built desktop image ${image.version} (${(image.manifest.size_bytes / 1048576).toFixed(0)} MiB in ` +
          `${image.manifest.build_seconds} s)`
      : `desktop image ${image.version} is up to date (${imagesDir()})`,
  );
} catch (err) {
  console.error(`desktop image: ${(err as Error).message}`);
  process.exit(1);
}
