// @needs nothing
// Pure parts of the live view: the shared capture hub (start with the first
// viewer, max settings, per-viewer rate, stop with the last, end with a reason),
// the /ws input messages, the desktop's XTest and xdotool mappings, MJPEG splitting and the host display's cookie.
import { describe, expect, it, vi } from "vitest";
import type { ScreencastCapability, ScreencastSettings, ScreencastSink } from "@/lib/computers/driver";
import { ScreencastHub, liveViewStats } from "@/lib/computers/live/hub";
import { parseLiveInput } from "@/lib/computers/live/input-message";
import { keyEvents, keysymOf, liveInputArgs, pointerEvents } from "@/lib/computers/desktop/live-input";
import { FAKE, keyPlaces } from "@/lib/computers/desktop/xtest";
import { MjpegSplitter } from "@/lib/computers/desktop/mjpeg";
import { mjpegQscale } from "@/lib/computers/desktop/screencast";
import { cookieForDisplay } from "@/lib/computers/desktop/host-display";

class FakeCapture implements ScreencastCapability {
  starts: ScreencastSettings[] = [];
  running = 0;
  sink: ScreencastSink | null = null;
  async start(settings: ScreencastSettings, sink: ScreencastSink) {
    this.starts.push(settings);
    this.running++;
    this.sink = sink;
    return async () => {
      this.running--;
    };
  }
  emit() {
    this.sink!.frame({ jpeg: Buffer.from([1]), width: 10, height: 10, timestamp: Date.now() });
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));

function viewer(fps: number, quality = 50) {
  const got = { frames: 0, ended: null as string | null };
  return { got, viewer: { fps, quality, frame: () => void got.frames++, ended: (r: string) => void (got.ended = r) } };
}

describe("ScreencastHub", () => {
  it("captures only while watched, at the highest fps and quality asked, and stops with the last viewer", async () => {
    const capture = new FakeCapture();
    const hub = new ScreencastHub(capture);
    expect(capture.running).toBe(0);
    const a = viewer(5, 40);
    const leaveA = hub.attach(a.viewer);
    await settle();
    expect(capture.starts).toEqual([{ fps: 5, quality: 40 }]);
    const b = viewer(20, 80);
    const leaveB = hub.attach(b.viewer);
    await settle();
    expect(capture.running).toBe(1);
    expect(capture.starts.at(-1)).toEqual({ fps: 20, quality: 80 });
    // Frames 100 ms apart: the 20 fps viewer gets each one, the 5 fps viewer only the first.
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: t0 });
    capture.emit();
    vi.setSystemTime(t0 + 100);
    capture.emit();
    vi.useRealTimers();
    expect(b.got.frames).toBe(2);
    expect(a.got.frames).toBe(1);
    leaveB();
    leaveA();
    leaveA(); // idempotent
    await settle();
    expect(capture.running).toBe(0);
    expect(hub.viewerCount).toBe(0);
  });

  it("gives a slower viewer the newest frame it skipped once its interval is up", async () => {
    const capture = new FakeCapture();
    const hub = new ScreencastHub(capture);
    const seen: number[] = [];
    const slow = {
      fps: 10,
      quality: 50,
      frame: (f: { timestamp: number }) => void seen.push(f.timestamp),
      ended: () => undefined,
    };
    const leave = hub.attach(slow);
    await settle();
    const frame = (timestamp: number) =>
      capture.sink!.frame({ jpeg: Buffer.from([1]), width: 10, height: 10, timestamp });
    frame(1);
    frame(2); // too soon: held
    frame(3); // too soon: replaces the held one
    expect(seen).toEqual([1]);
    await vi.waitFor(() => expect(seen).toEqual([1, 3]), { timeout: 1_000, interval: 10 });
    leave();
  });

  it("ends every viewer with the session's reason and refuses new ones", async () => {
    const capture = new FakeCapture();
    const hub = new ScreencastHub(capture);
    const before = liveViewStats().viewers;
    const a = viewer(15);
    hub.attach(a.viewer);
    await settle();
    await hub.end("deleted");
    expect(a.got.ended).toBe("deleted");
    expect(capture.running).toBe(0);
    expect(liveViewStats().viewers).toBe(before);
    expect(() => hub.attach(viewer(15).viewer)).toThrow(/ended/);
  });
});

describe("live input messages", () => {
  it("accepts the shapes of docs/contract.md (Streams) and names what is wrong otherwise", () => {
    expect(parseLiveInput('{"type":"pointer","action":"down","x":1,"y":2,"button":"right"}')).toEqual({
      type: "pointer",
      action: "down",
      x: 1,
      y: 2,
      button: "right",
    });
    expect(parseLiveInput('{"type":"text","text":"hi"}')).toEqual({ type: "text", text: "hi" });
    expect(() => parseLiveInput("nope")).toThrow(/JSON/);
    expect(() => parseLiveInput('{"type":"wheel","x":1,"y":2,"dx":0}')).toThrow(/dy/);
    expect(() => parseLiveInput('{"type":"pointer","action":"move","x":1e9,"y":0}')).toThrow(/x/);
  });

  it("maps to xdotool with zero delays and the shared key names", () => {
    expect(liveInputArgs({ type: "pointer", action: "down", x: 10.4, y: 20, button: "right" })).toEqual([
      "mousemove",
      "10",
      "20",
      "mousedown",
      "3",
    ]);
    expect(liveInputArgs({ type: "wheel", x: 0, y: 0, dx: 0, dy: 250 })).toEqual([
      "mousemove",
      "0",
      "0",
      "click",
      "--repeat",
      "3",
      "--delay",
      "0",
      "5",
    ]);
    expect(liveInputArgs({ type: "key", action: "up", key: "ctrl" })).toEqual(["keyup", "--delay", "0", "--", "ctrl"]);
    expect(liveInputArgs({ type: "text", text: "-x" })).toEqual(["type", "--delay", "0", "--", "-x"]);
  });

  // Also: names only xdotool knows are null.
  it("maps keys to X keysyms: named keys, F-keys, Latin-1 and other characters", () => {
    expect(keysymOf("Enter")).toBe(0xff0d);
    expect(keysymOf("ctrl")).toBe(0xffe3);
    expect(keysymOf("f5")).toBe(0xffc2);
    expect(keysymOf("a")).toBe(0x61);
    expect(keysymOf("é")).toBe(0xe9);
    expect(keysymOf("€")).toBe(0x010020ac);
    expect(keysymOf("XF86AudioPlay")).toBeNull();
    expect(() => keysymOf("ctrl+c")).toThrow(/Unknown key/);
  });

  it("finds keysyms on the keyboard map, plain column first, Shift column second", () => {
    // keycodes 38 ("a" / "A") and 50 (Shift_L), two keysyms per keycode, from keycode 38
    const keysyms = new Uint32Array(2 * 13);
    keysyms.set([0x61, 0x41], 0);
    keysyms.set([0xffe1, 0], 2 * 12);
    const places = keyPlaces(keysyms, 2, 38);
    expect(places.get(0x61)).toEqual({ keycode: 38, shift: false });
    expect(places.get(0x41)).toEqual({ keycode: 38, shift: true });
    expect(places.get(0xffe1)).toEqual({ keycode: 50, shift: false });
    expect(places.has(0)).toBe(false);
  });

  it("builds XTest events: Shift around a shifted key unless held, wheel notches as buttons 4–7", () => {
    const shift = { keycode: 50, shift: false };
    expect(keyEvents("down", { keycode: 38, shift: true }, shift, false)).toEqual([
      { type: FAKE.keyDown, detail: 50 },
      { type: FAKE.keyDown, detail: 38 },
      { type: FAKE.keyUp, detail: 50 },
    ]);
    expect(keyEvents("down", { keycode: 38, shift: true }, shift, true)).toEqual([{ type: FAKE.keyDown, detail: 38 }]);
    expect(keyEvents("up", { keycode: 38, shift: true }, shift, false)).toEqual([{ type: FAKE.keyUp, detail: 38 }]);
    expect(pointerEvents({ type: "pointer", action: "down", x: 10, y: 20, button: "right" })).toEqual([
      { type: FAKE.motion, detail: 0, x: 10, y: 20 },
      { type: FAKE.buttonDown, detail: 3 },
    ]);
    expect(pointerEvents({ type: "wheel", x: 1, y: 2, dx: -100, dy: 250 }).map((e) => [e.type, e.detail])).toEqual([
      [FAKE.motion, 0],
      [FAKE.buttonDown, 5],
      [FAKE.buttonUp, 5],
      [FAKE.buttonDown, 5],
      [FAKE.buttonUp, 5],
      [FAKE.buttonDown, 5],
      [FAKE.buttonUp, 5],
      [FAKE.buttonDown, 6],
      [FAKE.buttonUp, 6],
    ]);
  });

  it("splits ffmpeg's MJPEG stream into JPEG frames, across chunk boundaries and after garbage", () => {
    const a = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 2, 0xff, 0x00, 0xff, 0xd9]);
    const b = Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 3, 9, 0xff, 0xd0, 0xff, 0xd9]);
    const stream = Buffer.concat([Buffer.from("junk"), a, b, a]);
    for (const cut of [1, 5, 11, 16, 17, 20, stream.length - 1]) {
      const splitter = new MjpegSplitter();
      const frames = [...splitter.push(stream.subarray(0, cut)), ...splitter.push(stream.subarray(cut))];
      expect(frames).toEqual([a, b, a]);
    }
    const bounded = new MjpegSplitter(8);
    expect(bounded.push(Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(20)]))).toEqual([]);
    expect(bounded.push(b)).toEqual([b]);
  });

  it("maps ?quality= onto MJPEG's qscale, best 2, worst 31", () => {
    expect(mjpegQscale(100)).toBe(2);
    expect(mjpegQscale(1)).toBe(31);
    expect(mjpegQscale(60)).toBe(14);
  });

  it("rewrites the desktop's Xauthority entry for the host's display number (HostDisplay)", () => {
    const field = (v: string | Buffer) => {
      const b = Buffer.from(v);
      return Buffer.concat([Buffer.from([0, b.length]), b]);
    };
    const cookie = Buffer.alloc(16, 7);
    const entry = (n: string) =>
      Buffer.concat([Buffer.from([0xff, 0xff]), field(""), field(n), field("MIT-MAGIC-COOKIE-1"), field(cookie)]);
    expect(cookieForDisplay(entry("0"), 4321)).toEqual(entry("4321"));
  });
});
