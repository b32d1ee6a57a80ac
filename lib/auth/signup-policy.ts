// Who may create an account in the dashboard (the SIGNUP setting, docs/limits.md
// "Sign-up"). The first account of an install is always allowed (it becomes the
// owner); after it, `open` lets anyone in, `invite` only people holding a pending
// invitation, `closed` nobody (the operator adds people with the CLI). The rule
// is pure (`signupRefusal`); the sign-up hook in createAuth and the sign-up page
// both apply it, so the page never shows a form the server will refuse.
import { countUsers, hasPendingInvitation } from "@/lib/auth/organizations";
import { getEnv } from "@/lib/env";

export type SignupPolicy = "open" | "invite" | "closed";

/** What the sign-up page shows: the policy, and whether this would be the install's first account. */
export interface SignupState {
  policy: SignupPolicy;
  firstAccount: boolean;
}

/** Why this sign-up is refused under `policy`, or null when it may go on. */
export function signupRefusal(policy: SignupPolicy, who: { firstAccount: boolean; invited: boolean }): string | null {
  if (who.firstAccount || policy === "open") return null;
  if (policy === "invite") {
    return who.invited
      ? null
      : "Sign-up on this Cabin is by invitation only: ask an admin of a team for an invitation link";
  }
  return "Sign-up is closed on this Cabin: ask its operator to create your account";
}

export async function signupState(): Promise<SignupState> {
  return { policy: getEnv().SIGNUP, firstAccount: (await countUsers()) === 0 };
}

/** The refusal for a sign-up with `email` now, or null (the sign-up hook's check). */
export async function checkSignup(email: string): Promise<string | null> {
  const { policy, firstAccount } = await signupState();
  if (firstAccount || policy === "open") return null;
  return signupRefusal(policy, { firstAccount, invited: policy === "invite" && (await hasPendingInvitation(email)) });
}
