import path from 'node:path';
import { findPreset, PROVIDER_PRESETS } from '../providers/presets.ts';
import type { HermesConfig } from './loadConfig.ts';

/** Command-line overrides: `--model`, `--provider`, `--base-url`. */
export interface ModelFlags {
  model?: string;
  provider?: string;
  baseUrl?: string;
}

export interface ResolvedModel {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string;
}

export type ModelResolution = { ok: true; model: ResolvedModel } | { ok: false; provider: string; model: string; problem: string };

/** What the user must do to get a working model, in full: keys, variables, flags, the demo. */
export function setupInstructions(home: string): string {
  const config = path.join(home, 'config.yaml');
  const names = PROVIDER_PRESETS.map((p) => p.id).join(', ');
  return [
    `Configure a model in ${config}:`,
    '  model:',
    '    provider: openai          # one of: ' + names,
    '    default: gpt-4o-mini      # the model name',
    '    base_url: http://…/v1     # only for custom or non-default local servers',
    `and put the API key in the environment or ${path.join(home, '.env')} (OPENAI_API_KEY, OPENROUTER_API_KEY, ANTHROPIC_API_KEY).`,
    'Or pass flags: hermes --provider ollama --model llama3.1 (or --provider custom --base-url URL --model NAME).',
    'To see a whole turn offline first: hermes --demo',
  ].join('\n');
}

/**
 * The model of an auxiliary task (`auxiliary.approval`: smart approval's guardian), or null when
 * none is set: the task then uses the session's own model. What is not set comes from the main model,
 * except that a task naming its own provider does not inherit the main endpoint. Keys come from the
 * environment and `.env`, as for the main model.
 */
export function resolveAuxiliaryModel(
  task: { provider?: string; model?: string; base_url?: string },
  config: HermesConfig,
  env: Record<string, string | undefined>,
  flags: ModelFlags,
  home: string,
): ModelResolution | null {
  if (task.provider === undefined && task.model === undefined && task.base_url === undefined) return null;
  const ownEndpoint = task.provider !== undefined || task.base_url !== undefined;
  const model = { ...config.model, ...(ownEndpoint ? { base_url: task.base_url } : {}) };
  const auxFlags: ModelFlags = {
    provider: task.provider ?? flags.provider,
    model: task.model ?? flags.model,
    baseUrl: ownEndpoint ? task.base_url : flags.baseUrl,
  };
  return resolveModel({ ...config, model }, env, auxFlags, home);
}

/** config.yaml says `model: ""`: a model was meant to be named there and is not (doctor and the start both say so). */
export function namesEmptyModel(config: Pick<HermesConfig, 'raw'>): boolean {
  return typeof config.raw?.model === 'string' && config.raw.model.trim() === '';
}

/**
 * Decides provider, model, endpoint and key from config.yaml, the environment (which wins over
 * `.env`) and flags (which win over both). Never throws: an incomplete setup comes back as a problem
 * saying what is missing.
 */
export function resolveModel(
  config: HermesConfig,
  env: Record<string, string | undefined>,
  flags: ModelFlags,
  home: string,
): ModelResolution {
  const baseUrl = flags.baseUrl ?? config.model.base_url;
  let provider = flags.provider ?? config.model.provider;
  if (!provider) {
    if (baseUrl) provider = 'custom';
    else if (env.OPENROUTER_API_KEY) provider = 'openrouter';
    else if (env.OPENAI_API_KEY) provider = 'openai';
    else if (env.ANTHROPIC_API_KEY) provider = 'anthropic';
  }
  let model = flags.model ?? config.model.default ?? '';
  // An OpenRouter slug (`anthropic/claude-sonnet-4`, Hermes's usual `model:`) served by that vendor's own API.
  if (provider && provider !== 'openrouter' && model.startsWith(`${provider}/`)) model = model.slice(provider.length + 1);
  const fail = (problem: string): ModelResolution => ({
    ok: false,
    provider: provider ?? '',
    model,
    problem: `${problem}\n${setupInstructions(home)}`,
  });

  if (!provider) return fail(namesEmptyModel(config) ? 'config.yaml sets model: "" (an empty string), which names no model.' : 'No model provider is configured.');
  const preset = findPreset(provider);
  if (!preset) {
    return fail(`Unknown model provider "${provider}". Known providers: ${PROVIDER_PRESETS.map((p) => p.id).join(', ')}.`);
  }
  const url = baseUrl ?? preset.baseUrl;
  if (!url) return fail(`Provider "${provider}" needs a base URL: set model.base_url or pass --base-url.`);
  try {
    new URL(url);
  } catch {
    return fail(`The base URL "${url}" is not a valid URL (expected e.g. http://127.0.0.1:8000/v1).`);
  }
  if (!model) return fail(`No model name is set for provider "${provider}": set model.default or pass --model.`);
  const key = preset.keyVar ? env[preset.keyVar] : undefined;
  if (preset.keyRequired && !key) {
    return fail(`Provider "${provider}" needs an API key in ${preset.keyVar}, and it is not set.`);
  }
  // Local servers accept any key; the SDK insists on a non-empty one.
  return { ok: true, model: { provider, model, baseUrl: url.replace(/\/+$/, ''), apiKey: key || 'not-needed' } };
}
