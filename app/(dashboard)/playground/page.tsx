import { NotBuiltYet } from "@/components/not-built-yet";

export const metadata = { title: "Playground" };

export default function PlaygroundPage() {
  return (
    <NotBuiltYet title="Playground">
      <p>A streaming chat playground is coming. Meanwhile, any OpenAI client works against <code>/v1</code> with an API key.</p>
    </NotBuiltYet>
  );
}
