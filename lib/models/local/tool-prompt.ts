// What the local model is told about the tools it must call. The prompt is
// counted against a small context (the placeholder's is 8,192 tokens and its
// tokenizer spells JSON punctuation one character per token), so each tool is
// one line with its parameters as a short TypeScript-like signature rather
// than the JSON Schema itself; the grammar (`toGrammarSchema`) enforces the
// schema exactly whatever the prompt says.
import type { FunctionTool } from "@/lib/models/generation/tools";

type Json = Record<string, unknown>;

const MAX_DEPTH = 6;
/** A longer enum shows its first values and an ellipsis: the grammar holds the model to the whole list. */
const ENUM_SHOWN = 8;

/** `schema` as a signature, e.g. `{type: "click", x: int, y: int, button?: "left"|"right"} | {type: "wait"}`. */
export function signatureOf(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined || schema === null || typeof schema !== "object") return "any";
  if (depth > MAX_DEPTH) return "…";
  const s = schema as Json;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) {
    const shown = s.enum.slice(0, ENUM_SHOWN).map((v) => JSON.stringify(v));
    return (s.enum.length > ENUM_SHOWN ? [...shown, "…"] : shown).join("|");
  }
  if (typeof s.$ref === "string") return s.$ref.split("/").at(-1) ?? "any";
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.map((a) => signatureOf(a, depth + 1)).join(" | ");
  const types = Array.isArray(s.type)
    ? (s.type as string[])
    : typeof s.type === "string"
      ? [s.type]
      : s.properties
        ? ["object"]
        : [];
  if (!types.length) return "any";
  return types.map((type) => typeSignature(type, s, depth)).join("|");
}

function typeSignature(type: string, s: Json, depth: number): string {
  if (type === "integer") return "int";
  if (type === "array") return `${wrap(signatureOf(s.items, depth + 1))}[]`;
  if (type !== "object") return type;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const members = Object.entries((s.properties ?? {}) as Json).map(
    ([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${signatureOf(value, depth + 1)}`,
  );
  return `{${members.join(", ")}}`;
}

const wrap = (signature: string) =>
  signature.includes(" | ") || signature.includes("|") ? `(${signature})` : signature;

/** The system turn of a forced call: the tools it may call, one line each, and that it answers with arguments only. */
export function callInstructions(tools: FunctionTool[]): string {
  const lines = tools.map((t) => {
    const about = t.function.description ? ` ${t.function.description}` : "";
    return `- ${t.function.name}(${signatureOf(t.function.parameters ?? { type: "object", properties: {} })})${about}`;
  });
  return `Call one of these functions; answer with its arguments as a JSON object:\n${lines.join("\n")}`;
}
