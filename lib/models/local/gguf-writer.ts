// A minimal GGUF v3 serializer: metadata key/values plus F32 tensors. Enough to
// write a llama model llama.cpp can load; nothing here reads GGUF.

export type GgufValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: string[] }
  | { type: "f32[]"; value: number[] }
  | { type: "i32[]"; value: number[] };

export interface GgufTensor {
  name: string;
  /** GGUF dimension order: ne[0] first (the contiguous one). */
  dims: number[];
  data: Float32Array;
}

const ALIGNMENT = 32;
// GGUF value type ids (gguf.h).
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
const GGML_TYPE_F32 = 0;

/** Growable little-endian byte buffer. */
class ByteWriter {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  private ensure(extra: number) {
    if (this.length + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u32(v: number) {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.length);
    this.length += 4;
  }
  i32(v: number) {
    this.ensure(4);
    this.buf.writeInt32LE(v | 0, this.length);
    this.length += 4;
  }
  u64(v: number) {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.length);
    this.length += 8;
  }
  f32(v: number) {
    this.ensure(4);
    this.buf.writeFloatLE(v, this.length);
    this.length += 4;
  }
  u8(v: number) {
    this.ensure(1);
    this.buf.writeUInt8(v, this.length);
    this.length += 1;
  }
  bytes(b: Uint8Array) {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  str(s: string) {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.bytes(b);
  }
  pad(alignment: number) {
    while (this.length % alignment !== 0) this.u8(0);
  }
  result(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.length));
  }
}

function writeValue(w: ByteWriter, v: GgufValue) {
  switch (v.type) {
    case "u32":
      w.u32(T.u32);
      w.u32(v.value);
      break;
    case "i32":
      w.u32(T.i32);
      w.i32(v.value);
      break;
    case "f32":
      w.u32(T.f32);
      w.f32(v.value);
      break;
    case "bool":
      w.u32(T.bool);
      w.u8(v.value ? 1 : 0);
      break;
    case "string":
      w.u32(T.string);
      w.str(v.value);
      break;
    case "string[]":
      w.u32(T.array);
      w.u32(T.string);
      w.u64(v.value.length);
      v.value.forEach((s) => w.str(s));
      break;
    case "f32[]":
      w.u32(T.array);
      w.u32(T.f32);
      w.u64(v.value.length);
      v.value.forEach((x) => w.f32(x));
      break;
    case "i32[]":
      w.u32(T.array);
      w.u32(T.i32);
      w.u64(v.value.length);
      v.value.forEach((x) => w.i32(x));
      break;
  }
}

/** Serializes a GGUF v3 file; tensors are laid out in order, each 32-byte aligned. */
export function writeGguf(metadata: Array<[string, GgufValue]>, tensors: GgufTensor[]): Buffer {
  const w = new ByteWriter();
  w.bytes(Buffer.from("GGUF", "ascii"));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, value] of metadata) {
    w.str(key);
    writeValue(w, value);
  }
  let offset = 0;
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) throw new Error(`tensor ${t.name}: ${t.data.length} values for dims ${t.dims}`);
    w.str(t.name);
    w.u32(t.dims.length);
    t.dims.forEach((d) => w.u64(d));
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offset += Math.ceil((count * 4) / ALIGNMENT) * ALIGNMENT;
  }
  w.pad(ALIGNMENT);
  for (const t of tensors) {
    w.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    w.pad(ALIGNMENT);
  }
  return w.result();
}
