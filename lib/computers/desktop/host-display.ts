// The desktop's X display as the host sees it, for host-side X clients (x11vnc
// for endpoints.vnc; an ffmpeg capture could use it too). Xvfb listens only on the socket
// file in the desktop's private /tmp (`-nolisten local` turns the abstract
// socket off: the network namespace is the host's), and Debian's libxcb 1.15
// takes no socket path in DISPLAY (measured). So the host gets a display
// number of its own: a symlink /tmp/.X11-unix/X<n> to the desktop's socket
// through /proc/<init>/root (only root on the host can follow it), and a copy
// of the desktop's cookie rewritten for <n> in the session's private directory.
// Created on first use, removed with the desktop; a symlink a killed server
// left behind dangles once its desktop is gone and is removed by the next link.
import { randomInt } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync, unlinkSync } from "node:fs";
import { mkdir, symlink, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { XAUTHORITY } from "@/lib/computers/desktop/enter";

const HOST_X_SOCKETS = "/tmp/.X11-unix";
const DESKTOP_SOCKET = "tmp/.X11-unix/X0";
const OUR_LINK = /^\/proc\/\d+\/root\/tmp\/\.X11-unix\/X0$/;

export interface HostDisplayAddress {
  /** DISPLAY for a host-side client, ":<n>". */
  display: string;
  /** XAUTHORITY for it: the desktop's cookie for display <n>. */
  xauthority: string;
  /**
   * For a client in this process (XTestConnection): the socket path (our link) and the cookie's protocol name and data.
   */
  socket: string;
  auth: { name: string; data: Buffer };
}

function exists(p: string): boolean {
  try {
    lstatSync(/* turbopackIgnore: true */ p);
    return true;
  } catch {
    return false;
  }
}

/** Removes our links whose desktop is gone (a server killed before its desktops' tear-down). */
function removeDanglingLinks() {
  let names: string[] = [];
  try {
    names = readdirSync(/* turbopackIgnore: true */ HOST_X_SOCKETS);
  } catch {
    return;
  }
  for (const name of names) {
    const link = path.join(HOST_X_SOCKETS, name);
    try {
      if (!OUR_LINK.test(readlinkSync(/* turbopackIgnore: true */ link))) continue;
      try {
        statSync(/* turbopackIgnore: true */ link);
      } catch {
        unlinkSync(/* turbopackIgnore: true */ link);
      }
    } catch {
      // not a symlink, or already gone
    }
  }
}

function freeDisplayNumber(): number {
  for (;;) {
    const n = randomInt(2000, 60000);
    if (!exists(path.join(HOST_X_SOCKETS, `X${n}`)) && !exists(`/tmp/.X${n}-lock`)) return n;
  }
}

/**
 * The fields of the desktop's one Xauthority entry (FamilyWild, display "0"): counted big-endian strings after the
 * family.
 */
function authEntry(original: Buffer) {
  let at = 2;
  const field = () => {
    const length = original.readUInt16BE(at);
    const value = original.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return value;
  };
  return { family: original.subarray(0, 2), address: field(), number: field(), name: field(), data: field() };
}

/** The desktop's Xauthority entry rewritten for display `n`. */
export function cookieForDisplay(original: Buffer, n: number): Buffer {
  const entry = authEntry(original);
  const put = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
  return Buffer.concat([
    entry.family,
    put(entry.address),
    put(Buffer.from(String(n))),
    put(entry.name),
    put(entry.data),
  ]);
}

export class HostDisplay {
  private linking: Promise<HostDisplayAddress> | null = null;
  private closed = false;

  /** `pid1`: the desktop's init on the host; `dir`: the session's private directory (mode 0700). */
  constructor(
    private readonly pid1: number,
    private readonly dir: string,
  ) {}

  address(): Promise<HostDisplayAddress> {
    if (this.closed) return Promise.reject(new Error("the desktop is stopping"));
    this.linking ??= this.link().catch((err) => {
      this.linking = null;
      throw err;
    });
    return this.linking;
  }

  private async link(): Promise<HostDisplayAddress> {
    const root = `/proc/${this.pid1}/root`;
    const cookie = readFileSync(/* turbopackIgnore: true */ path.join(root, XAUTHORITY));
    await mkdir(/* turbopackIgnore: true */ HOST_X_SOCKETS, { recursive: true, mode: 0o1777 });
    removeDanglingLinks();
    for (let attempt = 0; ; attempt++) {
      const n = freeDisplayNumber();
      const link = path.join(HOST_X_SOCKETS, `X${n}`);
      try {
        await symlink(path.join(root, DESKTOP_SOCKET), link);
      } catch (err) {
        if (attempt < 5 && (err as NodeJS.ErrnoException).code === "EEXIST") continue;
        throw err;
      }
      const xauthority = path.join(this.dir, `host-display.Xauthority`);
      await writeFile(/* turbopackIgnore: true */ xauthority, cookieForDisplay(cookie, n), { mode: 0o600 });
      const { name, data } = authEntry(cookie);
      return { display: `:${n}`, xauthority, socket: link, auth: { name: name.toString("latin1"), data } };
    }
  }

  /** The desktop is stopping: remove the link (the cookie goes with the session's directory). */
  async close(): Promise<void> {
    this.closed = true;
    const linked = await this.linking?.catch(() => null);
    if (linked) await unlink(/* turbopackIgnore: true */ linked.socket).catch(() => {});
  }
}
