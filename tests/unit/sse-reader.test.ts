// @needs nothing
import { describe, expect, it } from "vitest";
import { parseSseText, readSse, readSseData } from "@/lib/api/sse-reader";

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

describe("readSse", () => {
  it('yields named events, unnamed ones as "message", ids and comments, in order', async () => {
    const items: unknown[] = [];
    for await (const item of readSse(
      streamOf(': subscribed\n\nevent: ended\nid: 7\ndata: {"reason":', '"deleted"}\n\ndata: x\n\n'),
    ))
      items.push(item);
    expect(items).toEqual([
      { type: "comment", comment: "subscribed" },
      { type: "event", event: "ended", id: "7", data: '{"reason":"deleted"}' },
      { type: "event", event: "message", data: "x" },
    ]);
  });

  it("reads a web ReadableStream (a fetch body) as it arrives", async () => {
    const body = new Response("data: one\n\ndata: two\n\n").body!;
    const data: string[] = [];
    for await (const item of readSse(body)) if (item.type === "event") data.push(item.data);
    expect(data).toEqual(["one", "two"]);
  });

  it("yields an event before the rest of the stream has arrived", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slow(): AsyncGenerator<string> {
      yield "data: first\n\n";
      await gate;
      yield "data: second\n\n";
    }
    const reader = readSseData(slow());
    expect((await reader.next()).value).toBe("first");
    release();
    expect((await reader.next()).value).toBe("second");
  });
});

describe("parseSseText", () => {
  it("parses a whole body, ignoring retry fields and a missing final blank line", () => {
    expect(parseSseText("retry: 10\nevent: a\ndata: 1\n\ndata: [DONE]")).toEqual([
      { type: "event", event: "a", data: "1" },
      { type: "event", event: "message", data: "[DONE]" },
    ]);
  });
});
