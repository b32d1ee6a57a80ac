// The google backend: Gemini's generateContent / streamGenerateContent through
// the AI SDK's @ai-sdk/google provider. The provider offers no computer-use
// tool, so a computer-use request reaches Gemini as vision chat with the
// `computer` function tool (lib/models/responses/to-chat.ts), like any chat
// model (docs/models.md "Backends").
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import type { ProviderBackendConfig } from "@/lib/models/config";
import { functionTools, samplingOptions, toPrompt, toToolChoice } from "@/lib/models/upstream/ai-sdk/chat-prompt";
import { SdkBackend } from "@/lib/models/upstream/ai-sdk/sdk-backend";

export function googleBackend(config: ProviderBackendConfig): SdkBackend {
  // An empty key rather than none: the provider would otherwise read GOOGLE_GENERATIVE_AI_API_KEY itself.
  const provider = createGoogleGenerativeAI({ baseURL: config.url, apiKey: config.apiKey ?? "" });
  const model = provider(config.upstreamModel);
  return new SdkBackend({
    kind: "google",
    id: config.id,
    timeoutMs: config.timeoutMs,
    url: config.url,
    model,
    prepare(input, params) {
      const tools = functionTools(input.options);
      return {
        options: {
          ...samplingOptions(params, input.options),
          prompt: toPrompt(input.request.messages),
          ...(tools.length ? { tools, toolChoice: toToolChoice(input.options.toolChoice) } : {}),
        },
      };
    },
  });
}
