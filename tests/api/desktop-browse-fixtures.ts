// What the desktop-browsing suite reads of the machine itself: a pixel of a screenshot, the
// desktop Chromium processes a server started, and the listening sockets of a network namespace.
import { readdirSync, readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";

/** The RGB value of one pixel of an 8-bit RGB(A), non-interlaced PNG (filters undone row by row). */
export function pixelAt(png: Buffer, px: number, py: number): [number, number, number] {
  let off = 8,
    width = 0,
    channels = 3;
  const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.subarray(off + 4, off + 8).toString();
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      channels = data[9] === 6 ? 4 : 3;
    }
    if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  let prev = Buffer.alloc(stride);
  for (let y = 0; y <= py; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? cur[x - channels] : 0,
        b = prev[x],
        c = x >= channels ? prev[x - channels] : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      cur[x] = (line[x] + ([0, a, b, (a + b) >> 1, paeth][filter] ?? 0)) & 255;
    }
    prev = cur;
  }
  return [prev[px * channels], prev[px * channels + 1], prev[px * channels + 2]];
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
