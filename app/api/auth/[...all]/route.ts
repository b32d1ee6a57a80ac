// Better Auth's endpoints (sign-up, sign-in, organizations, invitations).
import { getAuth } from "@/lib/auth/auth";

export const GET = (req: Request) => getAuth().handler(req);
export const POST = (req: Request) => getAuth().handler(req);
