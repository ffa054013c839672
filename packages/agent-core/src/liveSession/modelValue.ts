/** The one reading of a model value (`/model x`, `config.set model`): which provider and model it names. */
import type { ModelFlags } from '../config/resolveModel.ts';
import { findPreset } from '../providers/presets.ts';

/**
 * `"gpt-4o"` is a model on the current provider; `"openrouter:anthropic/claude-sonnet-4"` switches
 * provider, but only when the part before the colon is a provider preset: `"llama3:8b"` is the Ollama
 * model `llama3:8b`. `{provider, model, base_url}` is taken as given. Null when no model is named.
 */
export function parseModelValue(value: unknown): ModelFlags | null {
  if (typeof value === 'string') {
    const text = value.trim();
    if (!text) return null;
    const colon = text.indexOf(':');
    const provider = colon > 0 ? text.slice(0, colon) : '';
    if (provider && findPreset(provider)) {
      const model = text.slice(colon + 1).trim();
      // `"openrouter:"` names a provider and no model: not a model called "openrouter:".
      return model ? { provider, model } : null;
    }
    return { model: text };
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const flags: ModelFlags = {};
    if (typeof v.model === 'string' && v.model.trim()) flags.model = v.model.trim();
    if (typeof v.provider === 'string' && v.provider.trim()) flags.provider = v.provider.trim();
    if (typeof v.base_url === 'string' && v.base_url.trim()) flags.baseUrl = v.base_url.trim();
    return flags.model ? flags : null;
  }
  return null;
}

/** What to say when `parseModelValue` finds no model. */
export const MODEL_VALUE_HINT = 'name a model ("gpt-4o"), "provider:model" ("openrouter:anthropic/claude-sonnet-4"), or {provider, model, base_url}';
