import type { ResolvedModel } from '../config/resolveModel.ts';
import { AnthropicProvider } from './anthropicProvider.ts';
import { OpenAICompatibleProvider } from './openaiProvider.ts';
import { findPreset } from './presets.ts';
import type { ChatProvider } from './types.ts';

export interface CreateProviderOptions {
  /** Output budget per call, for APIs that require one (Anthropic); OpenAI-compatible calls leave it to the server. */
  maxTokens?: number;
}

/**
 * The adapter for a resolved model, chosen by its preset's wire protocol. Providers without a preset
 * (and `custom`) are OpenAI-compatible, the lingua franca of local and hosted servers.
 */
export function createProvider(resolved: ResolvedModel, options: CreateProviderOptions = {}): ChatProvider {
  const api = findPreset(resolved.provider)?.api ?? 'openai';
  return api === 'anthropic' ? new AnthropicProvider(resolved, { maxTokens: options.maxTokens }) : new OpenAICompatibleProvider(resolved);
}
