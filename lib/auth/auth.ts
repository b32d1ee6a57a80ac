// Team login: Better Auth with email + password and organizations, stored
// through Prisma. Created lazily so `next build` never touches the database.
import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { organization } from "better-auth/plugins/organization";
import { forgetDeletedKeys } from "@/lib/auth/api-keys";
import { pgAuthRateLimitStorage } from "@/lib/auth/login-backoff-shared";
import { prepareOrganizationDeletion } from "@/lib/auth/organization-lifecycle";
import { INVITATION_HEADER } from "@/lib/auth/invitation-header";
import { joinInvitationAtSignUp } from "@/lib/auth/invitations";
import { activateOrganizationForSessions, createOrganization, resolveMembership } from "@/lib/auth/organizations";
import { checkSignup } from "@/lib/auth/signup-policy";
import { dbProvider, getDb } from "@/lib/db";
import { configuredOrigin, requestOrigin } from "@/lib/api/public-url";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { getAppSecret } from "@/lib/secrets";
import { CLIENT_ADDRESS_HEADER } from "@/lib/api/client-address";
import { singleton, singletonKey } from "@/lib/singleton";

/** Clean-ups prepared before an organization's rows are deleted, run after (prepareOrganizationDeletion). */
const pendingDeletionCleanups = new Map<string, () => Promise<void>>();

function createAuth() {
  const env = getEnv();
  const base = configuredOrigin(env);
  return betterAuth({
    appName: "Cabin",
    baseURL: base,
    secret: getAppSecret(),
    database: prismaAdapter(getDb(), { provider: dbProvider() }),
    // Same-origin requests are trusted whatever host name the dashboard is
    // reached by; Better Auth rejects mutations from any other Origin (CSRF).
    trustedOrigins: (request) => (request ? [base, requestOrigin(request.headers, env, { asSent: true })] : [base]),
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8, maxPasswordLength: 128 },
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    // Brute-force guard on the credential endpoints: counters in memory on SQLite (one node), in
    // PostgreSQL rows every node shares otherwise (pgAuthRateLimitStorage, docs/scale-out.md).
    rateLimit: {
      customStorage: dbProvider() === "postgresql" ? pgAuthRateLimitStorage() : undefined,
      enabled: env.AUTH_RATE_LIMIT_PER_MINUTE > 0,
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: env.AUTH_RATE_LIMIT_PER_MINUTE },
        "/sign-up/email": { window: 60, max: env.AUTH_RATE_LIMIT_PER_MINUTE },
      },
    },
    // Limits key on the address the custom server vouches for (clientAddress), never a client's own X-Forwarded-For.
    advanced: { useSecureCookies: base.startsWith("https://"), cookiePrefix: "cabin", ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    logger: { disabled: env.NODE_ENV === "test" },
    plugins: [
      organization({
        allowUserToCreateOrganization: true,
        creatorRole: "owner",
        invitationExpiresIn: 60 * 60 * 24 * 7,
        // No mail server: the dashboard shows the invitation link to copy.
        sendInvitationEmail: async ({ id, email, organization: org }) => {
          getLogger().info({ invitationId: id, email, organizationId: org.id }, "invitation created");
        },
        // The database drops the organization's keys with it; servers must stop accepting them.
        // Better Auth's own delete endpoint ends the organization's sessions first, as
        // Settings does (deleteOrganization), so no computer outlives its rows.
        organizationHooks: {
          beforeDeleteOrganization: async ({ organization: org }) => {
            pendingDeletionCleanups.set(org.id, (await prepareOrganizationDeletion(org.id)).afterDeletion);
          },
          afterDeleteOrganization: async ({ organization: org }) => {
            await forgetDeletedKeys();
            await pendingDeletionCleanups.get(org.id)?.();
            pendingDeletionCleanups.delete(org.id);
          },
        },
      }),
    ],
    databaseHooks: {
      user: {
        create: {
          // The SIGNUP policy (checkSignup); operator CLI sign-ups (no HTTP request) are not web sign-ups.
          before: async (user, context) => {
            if (!context?.request) return;
            const refusal = await checkSignup(user.email);
            if (refusal) throw new APIError("FORBIDDEN", { message: refusal });
          },
          // People who sign up on the web land in a team of their own, unless
          // they signed up from an invitation link: then in the inviting team
          // only. Operator CLI sign-ups (no HTTP request) are placed by the CLI.
          after: async (user, context) => {
            if (!context?.request) return;
            const invitationId = context.request.headers.get(INVITATION_HEADER);
            if (invitationId && (await joinInvitationAtSignUp({ invitationId, userId: user.id, email: user.email }))) return;
            const org = await createOrganization({ name: `${user.name}'s team`, ownerId: user.id });
            // Better Auth may have made the sign-up's session before this hook ran.
            await activateOrganizationForSessions({ userId: user.id, organizationId: org.id });
          },
        },
      },
      session: {
        create: {
          before: async (session) => {
            const membership = await resolveMembership({ userId: session.userId });
            return { data: { ...session, activeOrganizationId: membership?.organizationId ?? null } };
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const authKey = singletonKey<Auth>("auth");

export function getAuth(): Auth {
  return singleton(authKey, createAuth);
}
