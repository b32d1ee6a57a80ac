// The sampling presets of interface §8, and the settings a playground request carries.

export interface SamplingSettings {
  temperature: number;
  maxTokens: number;
}

export const PRESETS = [
  { value: "creative", label: "Creative", temperature: 1.0, maxTokens: 2048, use: "Creative writing, brainstorming" },
  { value: "balanced", label: "Balanced", temperature: 0.7, maxTokens: 1024, use: "General tasks" },
  { value: "precise", label: "Precise", temperature: 0.3, maxTokens: 512, use: "Factual responses, code" },
] as const;

export type PresetName = (typeof PRESETS)[number]["value"];

/** The preset these values match, or "custom" when the user changed either. */
export function presetOf(settings: SamplingSettings): PresetName | "custom" {
  const match = PRESETS.find((p) => p.temperature === settings.temperature && p.maxTokens === settings.maxTokens);
  return match ? match.value : "custom";
}

export const TEMPERATURE_RANGE = { min: 0, max: 2, step: 0.1 } as const;
export const MAX_TOKENS_RANGE = { min: 1, max: 32768 } as const;
