import { describe, expect, it } from "vitest";
import { readSseData } from "@/lib/models/upstream/sse";

async function* streamOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  const enc = new TextEncoder();
  for (const p of parts) yield enc.encode(p);
}

async function collect(stream: AsyncIterable<Uint8Array>) {
  const out: string[] = [];
  for await (const d of readSseData(stream)) out.push(d);
  return out;
}

describe("readSseData", () => {
  it("yields each event's data, across arbitrary chunk boundaries", async () => {
    expect(await collect(streamOf('data: {"a":', "1}\n", "\ndata: [DO", "NE]\n\n"))).toEqual(['{"a":1}', "[DONE]"]);
  });

  it("handles CRLF, comments, other fields and multi-line data", async () => {
    expect(await collect(streamOf(": ping\r\n\r\nevent: x\r\ndata: a\r\ndata:b\r\n\r\n"))).toEqual(["a\nb"]);
  });

  it("does not split a CRLF that arrives in two chunks into two line ends", async () => {
    expect(await collect(streamOf("data: a\r", "\ndata: b\r\n\r\n"))).toEqual(["a\nb"]);
  });

  it("flushes a last event without its blank line", async () => {
    expect(await collect(streamOf("data: tail"))).toEqual(["tail"]);
  });
});
