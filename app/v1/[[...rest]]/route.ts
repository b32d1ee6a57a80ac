// Every path and method under /v1, served from the one route table
// (`resolveModelRoute`) that the custom server's fast path reads too.
// Production normally answers /v1 before Next (the fast path); this file serves
// it in development, and HEAD/OPTIONS, which the fast path leaves to Next.
import { nextModelRoute } from "@/lib/models/model-api";

export const dynamic = "force-dynamic";

export const GET = nextModelRoute;
export { GET as POST, GET as PUT, GET as PATCH, GET as DELETE };
