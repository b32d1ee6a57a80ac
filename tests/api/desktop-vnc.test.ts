// @needs server desktop
// endpoints.vnc of desktop sessions through a real server with a real desktop:
// an RFB client over the WebSocket (as noVNC speaks it) gets the protocol
// version, security type None, the server's init and a framebuffer update;
// a second client shares the same x11vnc; x11vnc stops with the last client
// and with the session; a bad token is refused with 401.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, useDesktopServer } from "./desktop-fixtures";
import { waitFor } from "./wait-for";

/** Host processes named `name` that carry the marker of desktop session `id`. */
function helpersOf(id: string, name: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== name) continue;
      const env = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
      if (env.some((v) => v.startsWith("CABIN_DESKTOP=") && v.endsWith(`/${id}`))) pids.push(Number(pid));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** An RFB byte stream over a WebSocket: messages may split or join protocol messages, so reads wait for n bytes. */
class RfbSocket {
  private buffered = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(url: string) {
    this.ws = new WebSocket(url, ["binary"]);
    this.ws.on("message", (data: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, data]);
      this.waiting?.();
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("unexpected-response", (_req, res) => reject(new Error(`status ${res.statusCode}`)));
      this.ws.once("error", reject);
    });
  }

  async read(n: number): Promise<Buffer> {
    while (this.buffered.length < n) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${n} bytes from the RFB server within 10 s`)), 10_000);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return out;
  }

  send(bytes: number[] | Buffer) {
    this.ws.send(Buffer.from(bytes));
  }

  /** Version, security None, ClientInit (shared); resolves with the framebuffer's size. */
  async handshake(): Promise<{ version: string; width: number; height: number }> {
    await this.opened;
    const version = (await this.read(12)).toString("latin1");
    this.send(Buffer.from("RFB 003.008\n"));
    const count = (await this.read(1))[0];
    const types = [...(await this.read(count))];
    expect(types).toContain(1); // None: the gateway's token is the gate
    this.send([1]);
    expect((await this.read(4)).readUInt32BE(0)).toBe(0); // SecurityResult OK
    this.send([1]); // ClientInit, shared
    const init = await this.read(24);
    await this.read(init.readUInt32BE(20)); // the desktop's name
    return { version, width: init.readUInt16BE(0), height: init.readUInt16BE(2) };
  }
}

describe.skipIf(!canRunDesktops)("desktop VNC endpoint", () => {
  const s = useDesktopServer();

  // Also: stops with the last client and with the session.
  it("speaks RFB over the WebSocket with the token; x11vnc is shared", async () => {
    const d = await createDesktop(s.a);
    expect(d.endpoints.vnc).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/computers/${d.id}/vnc\\?token=`));
    expect(helpersOf(d.id, "x11vnc")).toEqual([]);

    const rfb = new RfbSocket(d.endpoints.vnc);
    const init = await rfb.handshake();
    expect(init).toEqual({ version: "RFB 003.008\n", width: 1280, height: 720 });
    // FramebufferUpdateRequest, not incremental, the whole screen: a FramebufferUpdate (type 0) answers.
    rfb.send([3, 0, 0, 0, 0, 0, 1280 >> 8, 1280 & 255, 720 >> 8, 720 & 255]);
    const update = await rfb.read(4);
    expect(update[0]).toBe(0);
    expect(update.readUInt16BE(2)).toBeGreaterThan(0);

    // A second client (the API key instead of the token) shares the same x11vnc.
    const second = new WebSocket(d.endpoints.vnc.replace(/\?token=.*$/, ""), ["binary"], {
      headers: { authorization: `Bearer ${s.a.key}` },
    });
    const version = await new Promise<string>((resolve, reject) => {
      second.once("message", (data: Buffer) => resolve(data.toString("latin1")));
      second.once("error", reject);
    });
    expect(version).toBe("RFB 003.008\n");
    expect(helpersOf(d.id, "x11vnc")).toHaveLength(1);

    second.close();
    rfb.ws.close();
    await waitFor(() => helpersOf(d.id, "x11vnc"), {
      until: (p) => p.length === 0,
      message: "x11vnc to stop with the last client",
    });

    // Started again for the next client, and gone once the session ends (its socket closes).
    const again = new RfbSocket(d.endpoints.vnc);
    expect((await again.handshake()).width).toBe(1280);
    const closed = new Promise((resolve) => again.ws.once("close", resolve));
    await api("DELETE", `/computers/${d.id}`, undefined, s.a);
    await closed;
    await waitFor(() => helpersOf(d.id, "x11vnc"), {
      until: (p) => p.length === 0,
      message: "x11vnc to stop with the session",
    });
  });

  it("refuses a bad token or another organization's key with the API's error, before any RFB byte", async () => {
    const d = await createDesktop(s.a);
    const refused = (url: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const ws = new WebSocket(url, ["binary"], { headers });
        ws.once("open", () => reject(new Error("the upgrade was accepted")));
        ws.once("unexpected-response", (_req, res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
        });
        ws.once("error", reject);
      });
    const bad = await refused(d.endpoints.vnc.replace(/token=[^&]+/, "token=1.x"));
    expect(bad.status).toBe(401);
    expect(JSON.stringify(bad.body)).toContain("live-view token");
    const other = await refused(d.endpoints.vnc.replace(/\?token=.*$/, ""), { authorization: `Bearer ${s.b.key}` });
    expect(other.status).toBe(404);
    expect(helpersOf(d.id, "x11vnc")).toEqual([]);
    await api("DELETE", `/computers/${d.id}`, undefined, s.a);
  });
});
