// A minimal X11 client for live-view input (GET /computers/{id}/ws): one
// connection from the host to a desktop's display (HostDisplay), sending XTest
// FakeInput requests. xdotool costs a process spawn through nsenter for every
// input message (20–30 ms before the desktop sees a key); this is a socket
// write. It speaks only what live input needs: the connection set-up with the
// desktop's MIT cookie, QueryExtension, GetKeyboardMapping, XTest FakeInput and
// GetInputFocus (a round trip, so `send` resolves once the server has taken the
// events, as `xdotool` exiting did). Keys the keyboard map lacks, and text, stay
// with xdotool (DesktopLiveInput), which remaps a spare keycode for them.
import { connect, type Socket } from "node:net";

const OPCODE = { getInputFocus: 43, queryExtension: 98, getKeyboardMapping: 101 } as const;
const XTEST_FAKE_INPUT = 2;
const MAPPING_NOTIFY = 34;
const REPLY_TIMEOUT_MS = 10_000;

/** XTest event types (the core protocol's event codes). */
export const FAKE = { keyDown: 2, keyUp: 3, buttonDown: 4, buttonUp: 5, motion: 6 } as const;
export interface FakeEvent {
  type: (typeof FAKE)[keyof typeof FAKE];
  /** Keycode or button; 0 for motion. */
  detail: number;
  x?: number;
  y?: number;
}

/** Where a keysym sits on the keyboard map: its keycode, and whether Shift picks it (the map's second column). */
export interface KeyPlace {
  keycode: number;
  shift: boolean;
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** The keysym → place map from a GetKeyboardMapping reply's keysyms (pure; the first place of a keysym wins). */
export function keyPlaces(keysyms: Uint32Array, perKeycode: number, firstKeycode: number): Map<number, KeyPlace> {
  const places = new Map<number, KeyPlace>();
  for (const column of [0, 1]) {
    if (column >= perKeycode) break;
    for (let i = 0; i * perKeycode < keysyms.length; i++) {
      const keysym = keysyms[i * perKeycode + column]!;
      if (keysym && !places.has(keysym)) places.set(keysym, { keycode: firstKeycode + i, shift: column === 1 });
    }
  }
  return places;
}

interface Pending {
  resolve: (reply: Buffer) => void;
  reject: (err: Error) => void;
}

export class XTestConnection {
  private received: Buffer = Buffer.alloc(0);
  private sequence = 0;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | null = null;
  private places: Promise<Map<number, KeyPlace>> | null = null;
  private xtestOpcode = 0;
  private root = 0;
  private minKeycode = 8;
  private maxKeycode = 255;

  private constructor(private readonly socket: Socket) {}

  /** Connects to the X server at unix socket `path` with its cookie; rejects when the server refuses or lacks XTest. */
  static async open(path: string, auth: { name: string; data: Buffer }): Promise<XTestConnection> {
    const socket = connect(path);
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const connection = new XTestConnection(socket);
    socket.on("error", (err) => connection.fail(err));
    try {
      await connection.handshake(auth);
      const extension = await connection.request(OPCODE.queryExtension, 0, nameBody("XTEST"));
      if (!extension[8]) throw new Error("the X server has no XTEST extension");
      connection.xtestOpcode = extension[9]!;
      return connection;
    } catch (err) {
      connection.close();
      throw err;
    }
  }

  private handshake(auth: { name: string; data: Buffer }): Promise<void> {
    const name = Buffer.from(auth.name, "latin1");
    const data = auth.data;
    const setup = Buffer.alloc(12 + name.length + pad4(name.length) + data.length + pad4(data.length));
    setup[0] = 0x6c; // "l": little-endian
    setup.writeUInt16LE(11, 2);
    setup.writeUInt16LE(name.length, 6);
    setup.writeUInt16LE(data.length, 8);
    name.copy(setup, 12);
    data.copy(setup, 12 + name.length + pad4(name.length));
    return new Promise((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.received = Buffer.concat([this.received, chunk]);
        if (this.received.length < 8) return;
        const total = 8 + this.received.readUInt16LE(6) * 4;
        if (this.received.length < total) return;
        const reply = this.received.subarray(0, total);
        this.received = this.received.subarray(total);
        this.socket.off("data", onData).off("close", onClose);
        if (reply[0] !== 1)
          return reject(
            new Error(`the X server refused the connection: ${reply.subarray(8, 8 + reply[1]!).toString("latin1")}`),
          );
        this.minKeycode = reply[34]!;
        this.maxKeycode = reply[35]!;
        const screens = 40 + reply.readUInt16LE(24) + pad4(reply.readUInt16LE(24)) + 8 * reply[29]!;
        this.root = reply.readUInt32LE(screens);
        this.socket
          .on("data", (more) => this.onData(more))
          .on("close", () => this.fail(new Error("the X connection closed")));
        resolve();
      };
      const onClose = () => reject(new Error("the X server closed the connection during set-up"));
      this.socket.on("data", onData).once("close", onClose).write(setup);
    });
  }

  /** Where `keysym` sits on the keyboard map (fetched once, again after a MappingNotify); undefined: not on it. */
  async place(keysym: number): Promise<KeyPlace | undefined> {
    this.places ??= this.keyboardMapping();
    return (await this.places).get(keysym);
  }

  private async keyboardMapping(): Promise<Map<number, KeyPlace>> {
    const body = Buffer.alloc(4);
    body[0] = this.minKeycode;
    body[1] = this.maxKeycode - this.minKeycode + 1;
    const reply = await this.request(OPCODE.getKeyboardMapping, 0, body);
    const keysyms = new Uint32Array(reply.readUInt32LE(4));
    for (let i = 0; i < keysyms.length; i++) keysyms[i] = reply.readUInt32LE(32 + 4 * i);
    return keyPlaces(keysyms, reply[1]!, this.minKeycode);
  }

  /** Sends the events in order; resolves once the X server has processed them. */
  async send(events: FakeEvent[]): Promise<void> {
    const requests = Buffer.alloc(36 * events.length);
    events.forEach((event, i) => {
      const at = 36 * i;
      requests[at] = this.xtestOpcode;
      requests[at + 1] = XTEST_FAKE_INPUT;
      requests.writeUInt16LE(9, at + 2);
      requests[at + 4] = event.type;
      requests[at + 5] = event.detail;
      requests.writeUInt32LE(this.root, at + 12);
      requests.writeInt16LE(Math.round(event.x ?? 0), at + 24);
      requests.writeInt16LE(Math.round(event.y ?? 0), at + 26);
    });
    if (this.failure) throw this.failure;
    this.socket.write(requests);
    this.sequence = (this.sequence + events.length) & 0xffff;
    await this.request(OPCODE.getInputFocus, 0, Buffer.alloc(0));
  }

  /** One request that has a reply; an X error for it, or for a request sent before it, rejects. */
  private request(opcode: number, data: number, body: Buffer): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    const header = Buffer.alloc(4);
    header[0] = opcode;
    header[1] = data;
    header.writeUInt16LE(1 + body.length / 4, 2);
    this.sequence = (this.sequence + 1) & 0xffff;
    const sequence = this.sequence;
    this.socket.write(Buffer.concat([header, body]));
    return new Promise((resolve, reject) => {
      // A display that stops answering (a frozen desktop) must not hold the viewer's input queue.
      const timer = setTimeout(
        () => this.close(new Error(`the X server did not answer within ${REPLY_TIMEOUT_MS / 1000} s`)),
        REPLY_TIMEOUT_MS,
      );
      const settle = () => clearTimeout(timer);
      this.pending.set(sequence, {
        resolve: (reply) => (settle(), resolve(reply)),
        reject: (err) => (settle(), reject(err)),
      });
    });
  }

  private onData(chunk: Buffer) {
    this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
    while (this.received.length >= 32) {
      const kind = this.received[0]!;
      const total = kind === 1 ? 32 + this.received.readUInt32LE(4) * 4 : 32;
      if (this.received.length < total) return;
      const message = this.received.subarray(0, total);
      this.received = this.received.subarray(total);
      const sequence = message.readUInt16LE(2);
      if (kind === 0) {
        // An error: it belongs to `sequence`, or to a FakeInput before the next round trip, which it then fails.
        const err = new Error(`X error ${message[1]} (request ${message[10]}.${message.readUInt16LE(8)})`);
        const owner = this.pending.has(sequence) ? sequence : this.pending.keys().next().value;
        if (owner !== undefined) {
          this.pending.get(owner)!.reject(err);
          this.pending.delete(owner);
        }
      } else if (kind === 1) {
        this.pending.get(sequence)?.resolve(Buffer.from(message));
        this.pending.delete(sequence);
      } else if ((kind & 0x7f) === MAPPING_NOTIFY) {
        this.places = null; // the keyboard map changed (xdotool type remaps a keycode): read it again when next needed
      }
    }
  }

  private fail(err: Error) {
    this.failure ??= err;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }

  get closed(): boolean {
    return this.failure !== null;
  }

  close(reason = new Error("the X connection was closed")) {
    this.fail(reason);
    this.socket.destroy();
  }
}

function nameBody(name: string): Buffer {
  const body = Buffer.alloc(4 + name.length + pad4(name.length));
  body.writeUInt16LE(name.length, 0);
  body.write(name, 4, "latin1");
  return body;
}
