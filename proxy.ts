// Next's request proxy (formerly middleware), for pages only: it hands the
// requested path to server components, which Next does not otherwise tell a
// layout. `DashboardLayout` uses it to send a logged-out visitor to
// /login?next=<path> and back there after login.
import { NextResponse, type NextRequest } from "next/server";
import { REQUEST_PATH_HEADER } from "@/lib/auth/request-path";

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  // Always overwritten, so a client cannot choose it (it is sanitized again before use).
  headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: not the APIs, Next's own assets or files with an extension.
  matcher: ["/((?!api/|computers|v1|agent/|mcp|_next/|.*\\..*).*)"],
};
