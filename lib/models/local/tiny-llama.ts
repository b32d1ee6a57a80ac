// The embedded default model: a tiny llama-architecture GGUF generated from a
// seed, so Cabin serves real inference (tokenizer, decoding, streaming, exact
// usage, embeddings) with no download. Its weights are random: the text it
// writes is repeatable gibberish, not language. Only integer maths and exact
// IEEE operations are used, so the bytes are identical on every machine.
import { writeGguf, type GgufTensor } from "@/lib/models/local/gguf-writer";

export const TINY_LLAMA_NAME = "cabin-tiny-random";
/** sha256 of buildTinyLlama(); a change means the generator drifted. */
export const TINY_LLAMA_SHA256 = "b8fc40abe1b0c300ab8de4f3e303ccc0c69c73505f327e5404e84c580fb60628";

const DIM = 64;
const LAYERS = 2;
const HEADS = 4;
const FFN = 128;
// Room for the computer tool and 20 steps of history (docs/computer-use.md); the KV cache stays small (2 layers of 64).
const CONTEXT = 8192;
const SEED = 0x0cab1;

const WORDS = (
  "the of and to in is it you that he was for on are with as his they be at one have this from or had by " +
  "word but what some we can out other were all there when up use your how said an each she which do their " +
  "time if will way about many then them write would like so these her long make thing see him two has look " +
  "more day could go come did number sound no most people my over know water than call first who may down " +
  "side been now find any new work part take get place made live where after back little only round man year " +
  "came show every good me give our under name very through just form sentence great think say help low line " +
  "differ turn cause much mean before move right boy old too same tell does set three want air well also play " +
  "small end put home read hand port large spell add even land here must big high such follow act why ask men " +
  "change went light kind off need house picture try us again animal point mother world near build self earth " +
  "father head stand own page should country found answer school grow study still learn plant cover food sun " +
  "four between state keep eye never last let thought city tree cross farm hard start might story saw far sea " +
  "draw left late run while press close night real life few north open seem together next white children begin"
).split(" ");

/** SentencePiece-style vocabulary: specials, byte fallbacks, ASCII, words and every prefix of them. */
export function tinyVocabulary(): { tokens: string[]; types: number[] } {
  const tokens = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"];
  const types = [2, 3, 3, 3, 3]; // unknown, control...
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6); // byte
  }
  const seen = new Set(tokens);
  const add = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    tokens.push(t);
    types.push(1); // normal
  };
  add("\u2581");
  for (let c = 0x21; c < 0x7f; c++) add(String.fromCharCode(c));
  // SentencePiece merges a pair only if the merged piece exists, so words need all their prefixes.
  for (const word of WORDS) {
    const piece = `\u2581${word}`;
    for (let i = 2; i <= piece.length; i++) add(piece.slice(0, i));
  }
  return { tokens, types };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' " +
  "+ '\\n'}}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** Builds the model file (≈0.8 MB) in memory. */
export function buildTinyLlama(): Buffer {
  const { tokens, types } = tinyVocabulary();
  const vocab = tokens.length;
  const next = mulberry32(SEED);
  // Uniform in [-scale, scale): a u32 divided by 2^32 and scaled by a power of two is exact.
  const uniform = (count: number, scale: number) => {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = ((next() / 4294967296) * 2 - 1) * scale;
    return out;
  };
  const ones = (count: number) => new Float32Array(count).fill(1);
  const tensor = (name: string, dims: number[], data: Float32Array): GgufTensor => ({ name, dims, data });

  const output = uniform(DIM * vocab, 0.5);
  // Special and byte tokens are never predicted: greedy output is word pieces, never end-of-text.
  for (let t = 0; t < vocab; t++) if (types[t] !== 1) output.fill(0, t * DIM, (t + 1) * DIM);

  const tensors: GgufTensor[] = [
    tensor("token_embd.weight", [DIM, vocab], uniform(DIM * vocab, 1)),
    tensor("output_norm.weight", [DIM], ones(DIM)),
    tensor("output.weight", [DIM, vocab], output),
  ];
  for (let l = 0; l < LAYERS; l++) {
    const p = `blk.${l}.`;
    tensors.push(
      tensor(`${p}attn_norm.weight`, [DIM], ones(DIM)),
      tensor(`${p}attn_q.weight`, [DIM, DIM], uniform(DIM * DIM, 0.125)),
      tensor(`${p}attn_k.weight`, [DIM, DIM], uniform(DIM * DIM, 0.125)),
      tensor(`${p}attn_v.weight`, [DIM, DIM], uniform(DIM * DIM, 0.125)),
      tensor(`${p}attn_output.weight`, [DIM, DIM], uniform(DIM * DIM, 0.125)),
      tensor(`${p}ffn_norm.weight`, [DIM], ones(DIM)),
      tensor(`${p}ffn_gate.weight`, [DIM, FFN], uniform(DIM * FFN, 0.125)),
      tensor(`${p}ffn_up.weight`, [DIM, FFN], uniform(DIM * FFN, 0.125)),
      tensor(`${p}ffn_down.weight`, [FFN, DIM], uniform(FFN * DIM, 0.0625)),
    );
  }

  return writeGguf(
    [
      ["general.architecture", { type: "string", value: "llama" }],
      ["general.name", { type: "string", value: TINY_LLAMA_NAME }],
      ["general.file_type", { type: "u32", value: 0 }],
      ["llama.context_length", { type: "u32", value: CONTEXT }],
      ["llama.embedding_length", { type: "u32", value: DIM }],
      ["llama.block_count", { type: "u32", value: LAYERS }],
      ["llama.feed_forward_length", { type: "u32", value: FFN }],
      ["llama.attention.head_count", { type: "u32", value: HEADS }],
      ["llama.attention.head_count_kv", { type: "u32", value: HEADS }],
      ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
      ["llama.rope.dimension_count", { type: "u32", value: DIM / HEADS }],
      ["llama.rope.freq_base", { type: "f32", value: 10000 }],
      ["tokenizer.ggml.model", { type: "string", value: "llama" }],
      ["tokenizer.ggml.tokens", { type: "string[]", value: tokens }],
      ["tokenizer.ggml.scores", { type: "f32[]", value: tokens.map((_, i) => -i) }],
      ["tokenizer.ggml.token_type", { type: "i32[]", value: types }],
      ["tokenizer.ggml.unknown_token_id", { type: "u32", value: 0 }],
      ["tokenizer.ggml.bos_token_id", { type: "u32", value: 1 }],
      ["tokenizer.ggml.eos_token_id", { type: "u32", value: 4 }],
      ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
      ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
      ["tokenizer.chat_template", { type: "string", value: CHATML }],
    ],
    tensors,
  );
}
