// The path a page request asked for, as `proxy` passes it to server components.
import { loginPathFor } from "@/lib/auth/next-path";

export const REQUEST_PATH_HEADER = "x-cabin-path";

/** The login URL that returns to the page these request headers asked for. */
export function loginRedirectFor(headers: Headers): string {
  return loginPathFor(headers.get(REQUEST_PATH_HEADER));
}
