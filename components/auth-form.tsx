"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { authClient } from "@/lib/auth/client";
import { INVITATION_HEADER } from "@/lib/auth/invitation-header";
import { safeNextPath } from "@/lib/auth/next-path";
import type { SignupState } from "@/lib/auth/signup-policy";

/** The invitation a sign-up form was opened from: its email is fixed, and signing up joins its team. */
export interface SignUpInvitation {
  id: string;
  email: string;
  organizationName: string;
}

/** Where to go after login: a same-site path from ?next=, else the dashboard (see safeNextPath). */
function useNextPath(): string {
  return safeNextPath(useSearchParams().get("next"));
}

interface AuthProps {
  mode: "login" | "sign-up";
  invitation?: SignUpInvitation;
  /** The sign-up policy as it applies now (sign-up mode): decides between the form and the explanation. */
  signup?: SignupState;
}

/** True when the server would refuse this sign-up (signupRefusal): the page explains instead of offering a form. */
function signupUnavailable(signup: SignupState | undefined, invitation: SignUpInvitation | undefined): boolean {
  if (!signup || signup.firstAccount || signup.policy === "open") return false;
  return signup.policy === "closed" || !invitation;
}

function SignupUnavailable({ policy }: { policy: SignupState["policy"] }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm" data-testid="signup-unavailable">
      <h1 className="mb-4 text-lg font-semibold">
        {policy === "closed" ? "Sign-up is closed" : "Sign-up is by invitation only"}
      </h1>
      <p className="text-sm text-slate-700">
        {policy === "closed"
          ? "New accounts on this Cabin are created by its operator. Ask them to create yours."
          : "To join this Cabin, ask an admin of a team for an invitation link and open it: it lets you sign up."}
      </p>
      <p className="mt-4 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link href="/login" className="font-medium text-brand-600 hover:underline">
          Log in
        </Link>
      </p>
    </div>
  );
}

export function AuthForm({ mode, invitation, signup }: AuthProps) {
  const router = useRouter();
  const next = useNextPath();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = invitation?.email ?? String(form.get("email"));
    const password = String(form.get("password"));
    setPending(true);
    setError(null);
    // From an invitation link the server puts the new account in the inviting team (and no other).
    const fetchOptions = invitation ? { headers: { [INVITATION_HEADER]: invitation.id } } : undefined;
    const result =
      mode === "login"
        ? await authClient.signIn.email({ email, password })
        : await authClient.signUp.email({ email, password, name: String(form.get("name")) }, fetchOptions);
    setPending(false);
    if (result.error) {
      setError(result.error.message ?? "Something went wrong");
      return;
    }
    router.replace(invitation ? "/sessions" : next);
    router.refresh();
  }

  const otherPath = mode === "login" ? "/sign-up" : "/login";
  const otherNext = invitation ? `/invite/${invitation.id}` : next;
  const query = otherNext !== "/sessions" ? `?next=${encodeURIComponent(otherNext)}` : "";
  const title = invitation
    ? `Join ${invitation.organizationName} on Cabin`
    : mode === "login"
      ? "Log in"
      : "Create your account";
  if (mode === "sign-up" && signupUnavailable(signup, invitation)) return <SignupUnavailable policy={signup!.policy} />;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-lg font-semibold">{title}</h1>
      {mode === "sign-up" && signup?.firstAccount && (
        <p className="mb-4 rounded-md bg-brand-50 p-3 text-sm text-slate-700" data-testid="first-account-note">
          This Cabin has no accounts yet: the first account becomes its owner.
        </p>
      )}
      <form onSubmit={submit} className="space-y-4">
        {mode === "sign-up" && <TextField label="Name" name="name" autoComplete="name" required maxLength={100} />}
        {invitation ? (
          <TextField
            label="Email"
            name="email"
            type="email"
            value={invitation.email}
            readOnly
            hint="The address the invitation was sent to."
          />
        ) : (
          <TextField label="Email" name="email" type="email" autoComplete="email" required />
        )}
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete={mode === "login" ? "current-password" : "new-password"}
          minLength={8}
          required
          hint={mode === "sign-up" ? "At least 8 characters." : undefined}
        />
        {error && <Alert>{error}</Alert>}
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Please wait…" : mode === "login" ? "Log in" : "Sign up"}
        </Button>
      </form>
      {mode === "login" && signup && signup.policy !== "open" && !invitation ? (
        <p className="mt-4 text-center text-sm text-slate-600" data-testid="signup-policy-note">
          {signup.policy === "invite"
            ? "New here? Accounts are by invitation: open the invitation link a team admin sent you."
            : "New here? Accounts on this Cabin are created by its operator."}
        </p>
      ) : (
        <p className="mt-4 text-center text-sm text-slate-600">
          {mode === "login" ? "New here? " : "Already have an account? "}
          <Link href={`${otherPath}${query}`} className="font-medium text-brand-600 hover:underline">
            {mode === "login" ? "Create an account" : "Log in"}
          </Link>
        </p>
      )}
    </div>
  );
}

/** A login or sign-up page: the form reads ?next= (useSearchParams), so it renders inside Suspense. */
export function AuthPage(props: AuthProps) {
  return (
    <Suspense>
      <AuthForm {...props} />
    </Suspense>
  );
}
