// The anthropic backend: Claude's Messages API through the AI SDK's
// @ai-sdk/anthropic provider (its wire format, SSE events, error shape and
// beta headers are the provider's). A /v1/responses request with a computer
// tool gets Claude's own computer tool (`claudeComputerCall`); anything else
// runs as the chat request it is (docs/models.md "Backends").
import { createAnthropic } from "@ai-sdk/anthropic";
import type { ProviderBackendConfig } from "@/lib/models/config";
import { claudeComputerCall } from "@/lib/models/responses/native-computer-use/claude-computer";
import { functionTools, samplingOptions, toPrompt, toToolChoice } from "@/lib/models/upstream/ai-sdk/chat-prompt";
import { SdkBackend } from "@/lib/models/upstream/ai-sdk/sdk-backend";

export function anthropicBackend(config: ProviderBackendConfig): SdkBackend {
  // An empty key rather than none: the provider would otherwise read ANTHROPIC_API_KEY from the
  // environment itself, and Cabin's configuration is MODELS alone (lib/env.ts).
  const provider = createAnthropic({ baseURL: config.url, apiKey: config.apiKey ?? "" });
  const model = provider(config.upstreamModel);
  return new SdkBackend({
    kind: "anthropic",
    id: config.id,
    timeoutMs: config.timeoutMs,
    url: config.url,
    model,
    prepare(input, params) {
      const providerOptions = { anthropic: { disableParallelToolUse: !input.options.parallelToolCalls } };
      const sampling = { ...samplingOptions(params, input.options), providerOptions };
      const computer = input.responses && claudeComputerCall(input.responses, config.upstreamModel, input.options);
      if (computer) return { options: { ...sampling, ...computer.options }, translate: computer.translate };
      const tools = functionTools(input.options);
      return {
        options: {
          ...sampling,
          prompt: toPrompt(input.request.messages),
          ...(tools.length ? { tools, toolChoice: toToolChoice(input.options.toolChoice) } : {}),
        },
      };
    },
  });
}
