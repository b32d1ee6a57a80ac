// The marker every process Cabin starts for a desktop carries (CABIN_DESKTOP), so a
// restarted server finds a killed one's leftovers (`markedProcesses`). The desktop's
// own init (tini) carries it too and a desktop can read its environment, so the value
// names no host path: a digest of the data directory that holds the desktops (one
// server's desktops, not another's on the same host) and the session's id.
import { createHash } from "node:crypto";
import path from "node:path";

export const MARKER_VAR = "CABIN_DESKTOP";

/** The marker's prefix for every desktop whose directory is under `sessionsRoot`. */
export function markerPrefix(sessionsRoot: string): string {
  return `cabin-${createHash("sha256").update(path.resolve(/* turbopackIgnore: true */ sessionsRoot)).digest("hex").slice(0, 16)}/`;
}

/** The marker of the desktop whose directory is `sessionDir` (`<sessions root>/<id>`). */
export function desktopMarker(sessionDir: string): string {
  return `${markerPrefix(path.dirname(sessionDir))}${path.basename(sessionDir)}`;
}
