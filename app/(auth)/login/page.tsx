import { AuthPage } from "@/components/auth-form";

export const metadata = { title: "Log in" };

export default function LoginPage() {
  return <AuthPage mode="login" />;
}
