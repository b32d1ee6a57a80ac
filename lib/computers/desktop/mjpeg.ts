// Splitting a motion-JPEG byte stream (ffmpeg `-f mjpeg pipe:1`) into its
// frames. A frame runs from SOI (FF D8) to EOI (FF D9); inside the entropy-coded
// data every FF byte is followed by 00 or a restart marker, so the first FF D9
// after an SOI ends that frame. Bytes before an SOI are skipped.
const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);

export class MjpegSplitter {
  private pending: Buffer = Buffer.alloc(0);

  /** `maxFrameBytes`: a frame that grows past this is dropped (a broken stream never grows our buffer without end). */
  constructor(private readonly maxFrameBytes = 16 * 1024 * 1024) {}

  /** Feeds a chunk of the stream; returns the frames it completed, in order. */
  push(chunk: Buffer): Buffer[] {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: Buffer[] = [];
    for (;;) {
      const start = data.indexOf(SOI);
      if (start < 0) {
        // Keep a trailing FF: it may be the first half of the next SOI.
        data = data.length && data[data.length - 1] === 0xff ? data.subarray(data.length - 1) : Buffer.alloc(0);
        break;
      }
      const end = data.indexOf(EOI, start + 2);
      if (end < 0) {
        data = data.subarray(start);
        if (data.length > this.maxFrameBytes) data = Buffer.alloc(0);
        break;
      }
      frames.push(Buffer.from(data.subarray(start, end + 2)));
      data = data.subarray(end + 2);
    }
    this.pending = data;
    return frames;
  }
}
