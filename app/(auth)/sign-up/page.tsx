import { AuthPage } from "@/components/auth-form";

export const metadata = { title: "Sign up" };

export default function SignUpPage() {
  return <AuthPage mode="sign-up" />;
}
