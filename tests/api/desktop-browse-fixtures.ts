// What the desktop-browsing suite reads of the machine itself: a pixel of a screenshot, the
// desktop Chromium processes a server started, and the listening sockets of a network namespace.
import { readdirSync, readFileSync } from "node:fs";
import { decodePng } from "./png";

/** The RGB value of one pixel of a PNG (grey as three equal values). */
export function pixelAt(png: Buffer, px: number, py: number): [number, number, number] {
  const { width, channels, pixels } = decodePng(png);
  const at = (py * width + px) * channels;
  return channels < 3 ? [pixels[at], pixels[at], pixels[at]] : [pixels[at], pixels[at + 1], pixels[at + 2]];
}

/**
 * Host pids of the desktops' Chromium processes of the server `serverPid`: its descendants
 * (desktops and what runs in them are started by the server) named chrom…, minus its browser
 * pool's headless ones. Chromium's own sandbox puts every Chromium, the pool's too, in nested
 * PID namespaces, and other servers on this host run theirs: neither tells a desktop's apart.
 */
export function desktopChromiumsOf(serverPid: number): number[] {
  const procs = readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .flatMap((pid) => {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return [
          {
            pid: Number(pid),
            ppid: Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]),
            name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? "",
            zombie: /^State:\s+Z/m.test(status),
            cmdline,
          },
        ];
      } catch {
        return []; // exited meanwhile
      }
    });
  const parentOf = new Map(procs.map((p) => [p.pid, p.ppid]));
  const descends = (p: { ppid: number }): boolean => {
    for (let at: number | undefined = p.ppid, hops = 0; at && hops < 64; at = parentOf.get(at), hops++)
      if (at === serverPid) return true;
    return false;
  };
  return procs
    .filter((p) => /chrom/i.test(p.name) && !p.zombie && !/headless/.test(p.cmdline) && descends(p))
    .map((p) => p.pid);
}

/** Inodes of listening TCP sockets in a /proc/…/net/tcp{,6} table. */
export function tcpListeners(table: string): Set<string> {
  return new Set(
    readFileSync(table, "utf8")
      .split("\n")
      .slice(1)
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[3] === "0A")
      .map((f) => f[9]),
  );
}
