// Every image a request carries, as the upstream will be able to use it:
// Cabin's own screenshot links are read in process and sent inline as data
// URLs (no hosted provider can fetch a private address: OpenAI answers
// "Error while downloading …", invalid_image_url), data URLs are kept, and any
// other URL passes as given (the provider fetches it). Under a model's
// `maxImageEdge` the inline images are downscaled first (docs/models.md
// "Image size"). The request a client sent is not changed: the stored
// conversation keeps its links, only what goes to the backend is inlined.
import { createHash } from "node:crypto";
import type { ChatCompletionRequest } from "@/lib/models/gateway/schemas";
import { fitImage } from "@/lib/models/images/fit-image";
import { ownImageKey, readOwnImage } from "@/lib/models/images/own-images";
import type { InputItem } from "@/lib/models/responses/schema";
import { singleton, singletonKey } from "@/lib/singleton";

export interface InlineOptions {
  /** The model's longest-edge bound in pixels; undefined sends images at their size. */
  maxImageEdge?: number;
}

/**
 * Inline images by source (a screenshot's id, or a data URL's hash) and bound. A task sends its whole
 * history every step, so without this each of 20 steps would read and resize every earlier screenshot again.
 */
const CACHE_ENTRIES = 64;
const cache = singleton(singletonKey<Map<string, Promise<string>>>("models.inline-images"), () => new Map());

function cached(key: string, make: () => Promise<string>): Promise<string> {
  let value = cache.get(key);
  if (value) {
    cache.delete(key); // re-inserted: the Map's order is the recency order
    cache.set(key, value);
    return value;
  }
  value = make();
  cache.set(key, value);
  value.catch(() => cache.delete(key));
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,/i;

/** One image URL as the backend should get it. */
export function inlineImageUrl(url: string, options: InlineOptions): string | Promise<string> {
  const bound = options.maxImageEdge ?? 0;
  const own = ownImageKey(url);
  if (own) {
    return cached(`${own}@${bound}`, async () => {
      const file = await readOwnImage(url);
      // Not on this node (expired, or kept by another node of a cluster): sent as given, for an upstream that can reach
      // it.
      if (!file) return url;
      const fitted = await fitImage(file.data, file.mime, options.maxImageEdge);
      return `data:${fitted.mime};base64,${fitted.data.toString("base64")}`;
    });
  }
  const data = bound ? DATA_URL.exec(url) : null;
  if (!data) return url;
  const hash = createHash("sha1").update(url).digest("base64url");
  return cached(`data:${hash}@${bound}`, async () => {
    const bytes = Buffer.from(url.slice(data[0].length), "base64");
    const fitted = await fitImage(bytes, data[1]!.toLowerCase(), options.maxImageEdge);
    return fitted.data === bytes ? url : `data:${fitted.mime};base64,${fitted.data.toString("base64")}`;
  });
}

/** True when the URL will change on its way to a backend (so requests without such images are passed untouched). */
const needsWork = (url: string, options: InlineOptions) =>
  (options.maxImageEdge !== undefined && DATA_URL.test(url)) ||
  (/^https?:\/\//i.test(url) && url.includes("/screenshots/") && ownImageKey(url) !== null);

type ChatMessage = ChatCompletionRequest["messages"][number];

/**
 * A chat request with its image_url parts inlined; the same object when nothing changes (no image, or none of ours).
 */
export function inlineChatImages(
  request: ChatCompletionRequest,
  options: InlineOptions,
): ChatCompletionRequest | Promise<ChatCompletionRequest> {
  const touched = request.messages.some(
    (m) =>
      m.role === "user" &&
      Array.isArray(m.content) &&
      m.content.some((p) => p.type === "image_url" && needsWork(p.image_url.url, options)),
  );
  if (!touched) return request;
  return Promise.all(
    request.messages.map(async (m): Promise<ChatMessage> => {
      if (m.role !== "user" || !Array.isArray(m.content)) return m;
      const content = await Promise.all(
        m.content.map(async (part) =>
          part.type === "image_url"
            ? { ...part, image_url: { ...part.image_url, url: await inlineImageUrl(part.image_url.url, options) } }
            : part,
        ),
      );
      return { ...m, content };
    }),
  ).then((messages) => ({ ...request, messages }));
}

/** The image URLs of one Responses input item. */
function imageUrlsOf(item: InputItem): string[] {
  if (item.type === "computer_call_output") return [item.output.image_url];
  if (item.type !== "message" || typeof item.content === "string") return [];
  return item.content.flatMap((part) => (part.type === "input_image" ? [part.image_url] : []));
}

/**
 * Responses input items with their input_image parts and screenshots (computer_call_output) inlined; the same array
 * when nothing changes.
 */
export function inlineInputImages(items: InputItem[], options: InlineOptions): InputItem[] | Promise<InputItem[]> {
  if (!items.some((item) => imageUrlsOf(item).some((url) => needsWork(url, options)))) return items;
  return Promise.all(
    items.map(async (item): Promise<InputItem> => {
      if (item.type === "computer_call_output")
        return { ...item, output: { ...item.output, image_url: await inlineImageUrl(item.output.image_url, options) } };
      if (item.type !== "message" || typeof item.content === "string") return item;
      const content = await Promise.all(
        item.content.map(async (part) =>
          part.type === "input_image" ? { ...part, image_url: await inlineImageUrl(part.image_url, options) } : part,
        ),
      );
      return { ...item, content } as InputItem;
    }),
  );
}
