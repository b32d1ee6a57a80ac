// @needs nothing
import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { limitBody, refuseDeclaredLength, refuseRequestLine, securityHeaders, surfaceOf } from "@/lib/api/edge";

describe("refuseRequestLine", () => {
  it("refuses proxy and tracing verbs, any case", () => {
    expect(refuseRequestLine("TRACE", "/")?.status).toBe(405);
    expect(refuseRequestLine("track", "/computers")?.status).toBe(405);
    expect(refuseRequestLine("GET", "/computers")).toBeNull();
    // Plain paths (the quick check) pass; a dot segment is not plain and is still refused.
    expect(refuseRequestLine("POST", "/v1/chat/completions")).toBeNull();
    expect(refuseRequestLine("GET", "/v1/models/svc.sm-1")).toBeNull();
    expect(refuseRequestLine("GET", "/v1/./models")?.status).toBe(404);
  });

  it("refuses malformed percent-encoding and NUL bytes in any segment", () => {
    expect(refuseRequestLine("GET", "/computers/%ff%fe")?.message).toMatch(
      /percent-encoding in the path segment '%ff%fe'/,
    );
    expect(refuseRequestLine("GET", "/sessions/%E0%A4")?.status).toBe(400);
    expect(refuseRequestLine("GET", "/computers/a%00b")?.message).toMatch(/NUL/);
    expect(refuseRequestLine("GET", "/computers/caf%C3%A9?q=%ff")).toBeNull();
  });

  it("refuses dot segments on the JSON surfaces only", () => {
    expect(refuseRequestLine("GET", "/computers/../api/health")?.status).toBe(404);
    expect(refuseRequestLine("GET", "/v1/%2E/models")?.status).toBe(404);
    expect(refuseRequestLine("GET", "/_next/static/../x")).toBeNull();
  });

  it("refuses empty segments on the JSON surfaces, not a trailing slash", () => {
    expect(refuseRequestLine("POST", "/computers//drag")?.code).toBe("not_found");
    expect(refuseRequestLine("GET", "/v1//models?x=1")?.code).toBe("not_found");
    expect(refuseRequestLine("GET", "/computers/")).toBeNull();
    expect(refuseRequestLine("GET", "/sessions//x")).toBeNull();
  });

  it("refuses a target that is not a path", () => {
    expect(refuseRequestLine("GET", "http://evil.example/")?.status).toBe(400);
    expect(refuseRequestLine("OPTIONS", "*")?.status).toBe(400);
  });
});

describe("body limits", () => {
  it("refuses a declared length past the limit", () => {
    expect(refuseDeclaredLength("2048", 1024)?.status).toBe(413);
    expect(refuseDeclaredLength("1024", 1024)).toBeNull();
    expect(refuseDeclaredLength(undefined, 1024)).toBeNull();
  });

  it("stops delivering chunks once the running count passes the limit", async () => {
    const stream = Readable.from([Buffer.alloc(600), Buffer.alloc(600), Buffer.alloc(600)], {
      objectMode: false,
    }) as unknown as IncomingMessage;
    let refused = 0;
    limitBody(stream, 1000, () => refused++);
    let delivered = 0;
    let ended = false;
    stream.on("data", (chunk: Buffer) => (delivered += chunk.length));
    stream.on("end", () => (ended = true));
    await new Promise((resolve) => stream.on("close", resolve));
    expect(refused).toBe(1);
    expect(delivered).toBe(600);
    expect(ended).toBe(false);
  });
});

describe("surfaces and headers", () => {
  it("answers /v1 in the OpenAI envelope", () => {
    expect(surfaceOf("/v1/chat/completions")).toBe("openai");
    expect(surfaceOf("/v1x")).toBe("api");
    expect(surfaceOf("/v1?x=1")).toBe("openai");
  });

  it("adds HSTS only over HTTPS", () => {
    expect(securityHeaders(false)["strict-transport-security"]).toBeUndefined();
    expect(securityHeaders(true)["strict-transport-security"]).toMatch(/max-age/);
  });
});
