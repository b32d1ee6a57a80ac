// The dashboard's playground (docs/models.md "Playground (dashboard)"): which models it offers and one streamed chat.
export {
  playgroundChatSchema,
  playgroundModels,
  streamPlaygroundChat,
  type PlaygroundChatRequest,
  type PlaygroundModel,
} from "@/lib/models/playground/playground";
export type { PlaygroundMessageMetadata } from "@/lib/models/playground/playground-stream";
