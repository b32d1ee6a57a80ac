// A logged-in dashboard user for API tests: signs up through Better Auth's
// real endpoint and keeps the session cookie.
import { inject } from "vitest";
import { call, type ApiResponse } from "./client";

export interface DashboardUser {
  email: string;
  cookie: string;
  request<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
}

let counter = 0;

export async function signUp(name = "Tester"): Promise<DashboardUser> {
  const base = inject("baseUrl");
  const email = `user${Date.now()}-${counter++}@example.test`;
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: "correct horse battery", name }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return {
    email,
    cookie,
    request: (method, path, body) => call(method, path, { key: null, body, headers: { cookie, origin: base } }),
  };
}
