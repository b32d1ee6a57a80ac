// @needs nothing
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedModelPath, ensureEmbeddedModel } from "@/lib/models/local/embedded-model";
import { buildTinyLlama, TINY_LLAMA_SHA256, tinyVocabulary } from "@/lib/models/local/tiny-llama";

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("generated placeholder model", () => {
  it("is byte-identical to the pinned sha256 on every build", () => {
    const a = buildTinyLlama();
    const b = buildTinyLlama();
    expect(createHash("sha256").update(a).digest("hex")).toBe(TINY_LLAMA_SHA256);
    expect(a.equals(b)).toBe(true);
    expect(a.length).toBeLessThan(1_000_000);
  });

  it("has every prefix of every word piece, so SentencePiece can merge up to whole words", () => {
    const { tokens, types } = tinyVocabulary();
    expect(tokens.length).toBe(types.length);
    expect(tokens.slice(0, 5)).toEqual(["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"]);
    expect(tokens.filter((t) => /^<0x[0-9A-F]{2}>$/.test(t))).toHaveLength(256);
    const set = new Set(tokens);
    expect(set.size).toBe(tokens.length);
    for (const t of tokens) if (t.startsWith("\u2581") && t.length > 2) expect(set.has(t.slice(0, -1))).toBe(true);
  });

  it("parses as a llama GGUF with a ChatML template", async () => {
    const dir = tempDir("cabin-gguf-");
    const file = path.join(dir, "tiny.gguf");
    writeFileSync(file, buildTinyLlama());
    const info = await readGgufFileInfo(file, { readTensorInfo: true });
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe("llama");
    const llama = (info.metadata as unknown as { llama: Record<string, unknown> }).llama;
    expect(llama.embedding_length).toBe(64);
    expect(llama.block_count).toBe(2);
    expect(info.tensorInfo).toHaveLength(21);
    expect(String(info.metadata.tokenizer.chat_template)).toContain("<|im_start|>");
  });

  it("is generated once into DATA_DIR/models and reused", async () => {
    const dir = tempDir("cabin-data-");
    const file = await ensureEmbeddedModel(dir);
    expect(file).toBe(embeddedModelPath(dir));
    expect(await ensureEmbeddedModel(dir)).toBe(file);
    // A damaged file is replaced, not trusted.
    writeFileSync(file, "garbage");
    await ensureEmbeddedModel(dir);
    expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(TINY_LLAMA_SHA256);
  });
});
