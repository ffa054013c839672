import { ResponseError } from 'vscode-jsonrpc/node';
import { EventType, ErrorCode } from '../protocol/index.ts';
import { findPreset, PROVIDER_PRESETS, setConfigValue, type ModelFlags } from '@hermes/agent-core';
import type { HandlerContext, HandlerTable } from './context.ts';
import { invalidParams } from './params.ts';
import { sendSessionEvent } from './sessionHandlers.ts';
import { sessionInfo } from './sessionInfo.ts';

/** Keys `config.set` can change so far, and what each does. */
const SETTABLE = 'yolo (per session: true/false), model (per session: "name" or "provider:name"), plugins.enabled, plugins.disabled';

/** `"gpt-4o"`, `"openrouter:anthropic/claude-sonnet-4"`, or `{provider, model, base_url}`. */
function parseModelValue(value: unknown): ModelFlags | null {
  if (typeof value === 'string' && value.trim()) {
    const text = value.trim();
    const colon = text.indexOf(':');
    const provider = colon > 0 ? text.slice(0, colon) : '';
    if (provider && findPreset(provider)) return { provider, model: text.slice(colon + 1) };
    return { model: text };
  }
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    const flags: ModelFlags = {};
    if (typeof v.model === 'string' && v.model) flags.model = v.model;
    if (typeof v.provider === 'string' && v.provider) flags.provider = v.provider;
    if (typeof v.base_url === 'string' && v.base_url) flags.baseUrl = v.base_url;
    return flags.model ? flags : null;
  }
  return null;
}

export function configHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'config.get': ({ key }) => {
      let value: unknown = ctx.runtime.loaded.config.raw;
      for (const part of key.split('.')) {
        value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      }
      return { value: value ?? null };
    },

    'model.options': () => {
      const env = { ...ctx.runtime.loaded.dotenv, ...process.env };
      const configured = ctx.runtime.model.ok ? ctx.runtime.model.model : null;
      return {
        current: { provider: configured?.provider ?? '', model: configured?.model ?? '' },
        providers: PROVIDER_PRESETS.map((preset) => ({
          id: preset.id,
          models: configured?.provider === preset.id ? [configured.model] : [],
          configured: preset.keyRequired ? Boolean(preset.keyVar && env[preset.keyVar]) : preset.id !== 'custom' || Boolean(configured),
        })),
      };
    },

    'config.set': (params) => {
      if (params.key === 'model') {
        if (!params.session_id) throw invalidParams('config.set', 'session_id', 'is required for model');
        const flags = parseModelValue(params.value);
        if (!flags) {
          throw invalidParams('config.set', 'value', 'must be a model name, "provider:name", or {provider, model, base_url}');
        }
        const live = ctx.sessions.get(params.session_id);
        const model = ctx.runtime.sessionModel(flags);
        if (!model.provider) throw new ResponseError(ErrorCode.AgentUnavailable, model.unavailable ?? 'That model cannot be used.');
        const { deferred } = live.agent.switchModel(model);
        live.overrides = flags;
        ctx.logger.info('session %s: model %s/%s%s', live.id, model.providerLabel, model.modelLabel, deferred ? ' (next turn)' : '');
        if (!deferred) sendSessionEvent(ctx, live, EventType.SessionInfo, sessionInfo(ctx, live));
        const value = `${model.providerLabel}:${model.modelLabel}`;
        return { key: 'model', value, ...(deferred ? { warning: 'A turn is running: the new model applies from the next turn.' } : {}) };
      }
      if (params.key === 'plugins.enabled' || params.key === 'plugins.disabled') {
        const value = params.value;
        if (value !== null && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
          throw invalidParams('config.set', 'value', `must be a list of plugin names, or null to remove ${params.key}`);
        }
        try {
          setConfigValue(ctx.runtime.home, params.key, value ?? undefined);
        } catch (error) {
          throw new ResponseError(ErrorCode.UsageError, (error as Error).message);
        }
        // The plugin host reads this object on its next (re)load.
        const raw = ctx.runtime.loaded.config.raw;
        const plugins = (raw.plugins && typeof raw.plugins === 'object' ? raw.plugins : (raw.plugins = {})) as Record<string, unknown>;
        const field = params.key.split('.')[1]!;
        if (value === null) delete plugins[field];
        else plugins[field] = value;
        return { key: params.key, value, warning: 'Saved to config.yaml; applies at the next start or /reload-plugins.' };
      }
      if (params.key !== 'yolo') {
        throw new ResponseError(ErrorCode.UsageError, `config.set cannot change "${params.key}" yet; settable keys: ${SETTABLE}.`);
      }
      if (!params.session_id) throw invalidParams('config.set', 'session_id', 'is required for yolo');
      if (typeof params.value !== 'boolean') {
        throw invalidParams('config.set', 'value', 'must be true or false for yolo');
      }
      const live = ctx.sessions.get(params.session_id);
      live.agent.yolo = params.value;
      ctx.logger.info('session %s: yolo %s', live.id, params.value ? 'on' : 'off');
      sendSessionEvent(ctx, live, EventType.SessionInfo, sessionInfo(ctx, live));
      const warning = params.value
        ? 'yolo is on: dangerous commands run without asking in this session (hardline ones still never run).'
        : undefined;
      return { key: 'yolo', value: params.value, ...(warning ? { warning } : {}) };
    },
  };
}
