import { redirect } from "next/navigation";
import { AuthPage } from "@/components/auth-form";
import { signupState } from "@/lib/auth/signup-policy";

export const metadata = { title: "Log in" };

export const dynamic = "force-dynamic";

/** A fresh install (no account yet) has nobody to log in: it opens on Sign up, where the first account becomes the owner. */
export default async function LoginPage() {
  if ((await signupState()).firstAccount) redirect("/sign-up");
  return <AuthPage mode="login" />;
}
