// @needs nothing
// The /v1 route table: which handler a method and path reach, and the 405/404
// derived from it (pure: the derived answers need no key, so no database).
import { describe, expect, it } from "vitest";
import type { ModelHttpRequest } from "@/lib/models/gateway/http";
import { resolveModelRoute } from "@/lib/models/gateway/route-table";
import { chatCompletionsRoute, getModelRoute, listModelsRoute } from "@/lib/models/gateway/routes";

function request(method: string, pathname: string): ModelHttpRequest {
  return {
    method,
    pathname,
    requestId: "req_test",
    header: () => null,
    text: async () => "",
    signal: new AbortController().signal,
  };
}

async function answer(method: string, pathname: string) {
  const route = resolveModelRoute(method, pathname)!;
  const reply = await route.handler(request(method, pathname), route.params);
  return { status: reply.status, allow: reply.headers.allow, body: JSON.parse(reply.body as string) };
}

describe("resolveModelRoute", () => {
  it("reaches each endpoint's handler", () => {
    expect(resolveModelRoute("GET", "/v1/models")?.handler).toBe(listModelsRoute);
    expect(resolveModelRoute("POST", "/v1/chat/completions")?.handler).toBe(chatCompletionsRoute);
  });

  it("takes the rest of the path as the model id, decoded, slashes included", () => {
    expect(resolveModelRoute("GET", "/v1/models/Qwen/Qwen2.5-7B")).toEqual({
      handler: getModelRoute,
      params: { id: "Qwen/Qwen2.5-7B" },
    });
    expect(resolveModelRoute("GET", "/v1/models/a%2Fb%20c")?.params).toEqual({ id: "a/b c" });
    expect(resolveModelRoute("GET", "/v1/models/%E0%A4")?.params).toEqual({ id: "%E0%A4" });
  });

  it("leaves paths outside /v1 and methods it does not answer to Next", () => {
    expect(resolveModelRoute("GET", "/v10/models")).toBeNull();
    expect(resolveModelRoute("GET", "/api/health")).toBeNull();
    expect(resolveModelRoute("HEAD", "/v1/models")).toBeNull();
    expect(resolveModelRoute("OPTIONS", "/v1/chat/completions")).toBeNull();
  });

  it("answers a wrong method with a 405 whose allow header comes from the table", async () => {
    for (const [method, path, allow] of [
      ["GET", "/v1/chat/completions", "POST"],
      ["DELETE", "/v1/embeddings", "POST"],
      ["POST", "/v1/models", "GET"],
      ["PUT", "/v1/models/svc.sm-1", "GET"],
    ]) {
      const res = await answer(method!, path!);
      expect(res).toMatchObject({ status: 405, allow });
      expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "method_not_allowed" });
    }
  });

  it("answers any other /v1 path with the unknown-path 404", async () => {
    for (const path of ["/v1", "/v1/", "/v1/files", "/v1/models/", "/v1/chat/completions/x"]) {
      const res = await answer("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toMatchObject({ type: "not_found_error", code: "unknown_url" });
    }
  });
});
