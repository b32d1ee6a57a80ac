// HTTP fast paths: handlers that domain code (inside Next's bundle) offers to
// the custom server, which consults them before handing a request to Next.
// server.ts runs outside the bundle, so this module imports nothing but the
// singleton helper (relative path, plain Node).
import type { IncomingMessage, ServerResponse } from "node:http";
import { singletonKey } from "./singleton";

/** Returns true when it took the request (and will answer it). */
export type HttpFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The registered fast paths by name: registering a name again (a dev reload) replaces its handler. */
export const httpFastPathsKey = singletonKey<Map<string, HttpFastPath>>("httpFastPaths");
