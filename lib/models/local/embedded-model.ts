// The placeholder model used when no model is configured: generated once into
// DATA_DIR/models (about 25 ms), checked against a pinned sha256, reused after.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildTinyLlama, TINY_LLAMA_NAME, TINY_LLAMA_SHA256 } from "@/lib/models/local/tiny-llama";

export const PLACEHOLDER_NOTICE =
  "Cabin generated a tiny random-weight model because no model is configured: its outputs are not meaningful. " +
  "Set MODELS to a real GGUF file or an OpenAI-compatible upstream.";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export function embeddedModelPath(dataDir: string): string {
  return path.join(dataDir, "models", `${TINY_LLAMA_NAME}-${TINY_LLAMA_SHA256.slice(0, 12)}.gguf`);
}

/** Returns the path of the placeholder model file, generating it when missing or damaged. */
export async function ensureEmbeddedModel(dataDir: string): Promise<string> {
  const file = embeddedModelPath(dataDir);
  const existing = await readFile(/* turbopackIgnore: true */ file).catch(() => null);
  if (existing && sha256(existing) === TINY_LLAMA_SHA256) return file;

  const bytes = buildTinyLlama();
  const digest = sha256(bytes);
  if (digest !== TINY_LLAMA_SHA256) {
    throw new Error(
      `generated placeholder model has sha256 ${digest}, expected ${TINY_LLAMA_SHA256}: the generator drifted`,
    );
  }
  await mkdir(/* turbopackIgnore: true */ path.dirname(file), { recursive: true });
  // Write then rename, so a crash never leaves a half-written model behind.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(/* turbopackIgnore: true */ tmp, bytes);
  await rename(/* turbopackIgnore: true */ tmp, /* turbopackIgnore: true */ file);
  return file;
}
