// Images a request names by one of Cabin's own links (a session's screenshot, docs/computer-use.md): a hosted
// provider cannot fetch them, so they are read in process and sent inline (inline-images.ts). Which links are
// Cabin's, and how to read one, is the session domain's knowledge: it registers a reader at start-up
// (lib/boot.ts), the way the cluster's parts register their ports, so the model service imports nothing of it.
import { singleton, singletonKey } from "@/lib/singleton";

export interface OwnImages {
  /** A stable cache key when `url` is one of Cabin's own image links with a valid token; else null. */
  keyOf(url: string): string | null;
  /** Its bytes, or null when it is gone (expired, or kept by another node of a cluster). */
  read(url: string): Promise<{ data: Buffer; mime: string } | null>;
}

const reader = singleton(singletonKey<{ current: OwnImages | null }>("models.own-images"), () => ({ current: null }));

export function registerOwnImages(images: OwnImages): void {
  reader.current = images;
}

/** The cache key of one of Cabin's own image links, or null (no reader registered: none are recognised). */
export const ownImageKey = (url: string): string | null => reader.current?.keyOf(url) ?? null;

export const readOwnImage = (url: string) => reader.current?.read(url) ?? Promise.resolve(null);
