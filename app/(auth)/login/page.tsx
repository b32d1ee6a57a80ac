import { redirect } from "next/navigation";
import { AuthPage } from "@/components/auth-form";
import { signupState } from "@/lib/auth/signup-policy";

export const metadata = { title: "Log in" };

export const dynamic = "force-dynamic";

/**
 * A fresh install (no account yet) has nobody to log in: it opens on Sign up, where the first account becomes the
 * owner.
 */
export default async function LoginPage() {
  const signup = await signupState();
  if (signup.firstAccount) redirect("/sign-up");
  // The policy decides what the page offers a newcomer: a sign-up link only when sign-up is open.
  return <AuthPage mode="login" signup={signup} />;
}
