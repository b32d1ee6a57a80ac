// The host programs a desktop's live view runs (the set-up installs them with
// apt-get): ffmpeg for the screencast's capture (desktopScreencast) and x11vnc
// for endpoints.vnc (DesktopVnc). Without one, the endpoints it serves are not
// offered (sessionEndpoints) and the handle lacks the capability.
import { existsSync } from "node:fs";
import path from "node:path";

const DIRS = ["/usr/bin", "/usr/local/bin"];

function find(name: string): string | null {
  return (
    DIRS.map((dir) => path.join(/* turbopackIgnore: true */ dir, name)).find((p) =>
      existsSync(/* turbopackIgnore: true */ p),
    ) ?? null
  );
}

/** The host's ffmpeg, or null: without it desktops have no screencast or /ws. */
export function ffmpegPath(): string | null {
  return find("ffmpeg");
}

/** The host's x11vnc, or null: without it desktops have no endpoints.vnc. */
export function x11vncPath(): string | null {
  return find("x11vnc");
}
