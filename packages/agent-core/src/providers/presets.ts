/** The wire protocol a provider speaks, which decides the adapter `createProvider` builds. */
export type ProviderApi = 'openai' | 'anthropic';

/** Endpoints hermes knows by name. */
export interface ProviderPreset {
  id: string;
  label: string;
  api: ProviderApi;
  baseUrl?: string;
  /** Environment variable holding the API key; absent for local servers that need none. */
  keyVar?: string;
  keyRequired: boolean;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'openai', label: 'OpenAI', api: 'openai', baseUrl: 'https://api.openai.com/v1', keyVar: 'OPENAI_API_KEY', keyRequired: true },
  // The Anthropic SDK adds `/v1/messages` itself, so the base has no `/v1`.
  { id: 'anthropic', label: 'Anthropic', api: 'anthropic', baseUrl: 'https://api.anthropic.com', keyVar: 'ANTHROPIC_API_KEY', keyRequired: true },
  { id: 'openrouter', label: 'OpenRouter', api: 'openai', baseUrl: 'https://openrouter.ai/api/v1', keyVar: 'OPENROUTER_API_KEY', keyRequired: true },
  { id: 'ollama', label: 'Ollama', api: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', keyRequired: false },
  { id: 'lmstudio', label: 'LM Studio', api: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', keyRequired: false },
  { id: 'vllm', label: 'vLLM', api: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', keyVar: 'VLLM_API_KEY', keyRequired: false },
  { id: 'llamacpp', label: 'llama.cpp server', api: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', keyRequired: false },
  // Any other OpenAI-compatible server: `model.base_url` says where; OPENAI_API_KEY is sent if set.
  { id: 'custom', label: 'custom OpenAI-compatible endpoint', api: 'openai', keyVar: 'OPENAI_API_KEY', keyRequired: false },
];

export function findPreset(id: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}
