// Better Auth's endpoints (sign-up, sign-in, organizations, invitations); email
// sign-in goes through the per-account backoff first (withLoginBackoff).
import { getAuth } from "@/lib/auth/auth";
import { withLoginBackoff } from "@/lib/auth/login-backoff-route";

export const GET = (req: Request) => getAuth().handler(req);
export const POST = (req: Request) => withLoginBackoff(req, (r) => getAuth().handler(r));
