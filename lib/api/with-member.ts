// The dashboard's wrapper: login cookie → user + organization + role.
import { AppError } from "@/lib/api/errors";
import { wrap, type PublicContext } from "@/lib/api/handlers";
import { getAuth } from "@/lib/auth/auth";
import { resolveMembership, type Role } from "@/lib/auth/organizations";

export interface Member {
  userId: string;
  email: string;
  name: string;
  organizationId: string;
  role: Role;
}

export interface MemberContext extends PublicContext {
  member: Member;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Mutations must come from this origin: the login cookie alone is not proof of intent. */
function assertSameOrigin(req: Request) {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  const site = req.headers.get("sec-fetch-site");
  if (origin) {
    if (new URL(origin).host !== host) throw new AppError("forbidden", "Cross-origin request refused");
  } else if (site && site !== "same-origin" && site !== "none") {
    throw new AppError("forbidden", "Cross-site request refused");
  }
}

export async function currentMember(headers: Headers): Promise<Member | null> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const membership = await resolveMembership({
    userId: session.user.id,
    activeOrganizationId: (session.session as { activeOrganizationId?: string | null }).activeOrganizationId,
  });
  if (!membership) return null;
  return {
    userId: session.user.id,
    email: session.user.email,
    name: session.user.name,
    organizationId: membership.organizationId,
    role: membership.role as Role,
  };
}

export function withMember(
  handler: (ctx: MemberContext) => Promise<Response> | Response,
  { roles }: { roles?: Role[] } = {},
) {
  return wrap("api", async (base) => {
    assertSameOrigin(base.req);
    const member = await currentMember(base.req.headers);
    if (!member) throw new AppError("unauthorized", "Log in to continue");
    if (roles && !roles.includes(member.role)) {
      throw new AppError("forbidden", `This needs the role ${roles.join(" or ")}`);
    }
    return { ...base, member };
  }, handler);
}
