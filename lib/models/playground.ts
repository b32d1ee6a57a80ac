// The dashboard's playground (docs/models.md "Playground (dashboard)"): which models it offers and one streamed chat.
export { playgroundModels, streamPlaygroundChat, type PlaygroundModel } from "@/lib/models/playground/playground";
export type { PlaygroundMessageMetadata } from "@/lib/models/playground/playground-stream";
