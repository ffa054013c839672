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

/**
 * Providers whose names also lead OpenRouter's model slugs (`anthropic/claude-sonnet-4`): Hermes's own
 * `model:` string is such a slug, served by whichever provider has a key (resolveModel).
 */
const SLUG_VENDORS = new Set(['openai', 'anthropic']);

/**
 * config.yaml's `model:` written as one string, as Hermes writes it: `openrouter/anthropic/claude-sonnet-4`
 * or `ollama/llama3.1` name the provider first; `anthropic/claude-sonnet-4` and `gpt-4o` are a model
 * (an OpenRouter slug or a plain name) for the provider that has a key.
 */
export function modelFromConfigString(text: string): { provider?: string; model: string } {
  const slash = text.indexOf('/');
  const provider = slash > 0 ? text.slice(0, slash) : '';
  const model = text.slice(slash + 1).trim();
  if (provider && model && findPreset(provider) && !SLUG_VENDORS.has(provider)) return { provider, model };
  return { model: text.trim() };
}

/** What to say when `parseModelValue` finds no model. */
export const MODEL_VALUE_HINT = 'name a model ("gpt-4o"), "provider:model" ("openrouter:anthropic/claude-sonnet-4"), or {provider, model, base_url}';
