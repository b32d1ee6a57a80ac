// The dashboard's wrapper: login cookie → user + organization + role.
import { AppError } from "@/lib/api/errors";
import { wrap, type PublicContext } from "@/lib/routes/handlers";
import { currentMember, type Member } from "@/lib/auth/member";
import type { Role } from "@/lib/auth/organizations";

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
  if (origin !== null) {
    // `null` (a sandboxed frame, a file: page, some redirects) and a malformed origin name no host: foreign.
    const from = originHost(origin);
    if (from === null || from !== host) throw new AppError("forbidden", "Cross-origin request refused");
  } else if (site && site !== "same-origin" && site !== "none") {
    throw new AppError("forbidden", "Cross-site request refused");
  }
}

function originHost(origin: string): string | null {
  return URL.canParse(origin) ? new URL(origin).host : null;
}

export function withMember(
  handler: (ctx: MemberContext) => Promise<Response> | Response,
  { roles }: { roles?: Role[] } = {},
) {
  return wrap(
    "api",
    async (base) => {
      assertSameOrigin(base.req);
      const member = await currentMember(base.req.headers);
      if (!member) throw new AppError("unauthorized", "Log in to continue");
      if (roles && !roles.includes(member.role)) {
        throw new AppError("forbidden", `This needs the role ${roles.join(" or ")}`);
      }
      return { ...base, member };
    },
    handler,
  );
}
