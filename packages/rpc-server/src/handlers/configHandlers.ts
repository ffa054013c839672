import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';
import { ApprovalModeError, configValue, ModelUnavailableError, ModelValueError, PROVIDER_PRESETS } from '@hermes/agent-core';
import type { HandlerContext, HandlerTable } from './context.ts';
import { invalidParams } from './params.ts';

/** Keys `config.set` can change so far, and what each does. */
const SETTABLE = 'yolo (per session: true/false), model (per session: "name" or "provider:name"), approvals.mode, plugins.enabled, plugins.disabled';

export function configHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'config.get': ({ key }) => {
      return { value: configValue(ctx.runtime.loaded.config.raw, key) ?? null };
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
        const live = ctx.sessions.get(params.session_id);
        try {
          const { value, deferred } = live.service.setModel(params.value);
          ctx.logger.info('session %s: model %s%s', live.id, value, deferred ? ' (next turn)' : '');
          return { key: 'model', value, ...(deferred ? { warning: 'A turn is running: the new model applies from the next turn.' } : {}) };
        } catch (error) {
          if (error instanceof ModelValueError) throw invalidParams('config.set', 'value', 'must be a model name, "provider:name", or {provider, model, base_url}');
          if (error instanceof ModelUnavailableError) throw new ResponseError(ErrorCode.AgentUnavailable, error.message);
          throw error;
        }
      }
      if (params.key === 'approvals.mode') {
        if (!params.session_id) throw invalidParams('config.set', 'session_id', 'is required for approvals.mode');
        if (typeof params.value !== 'string') throw invalidParams('config.set', 'value', 'must be an approval mode name for approvals.mode');
        const live = ctx.sessions.get(params.session_id);
        try {
          return { key: 'approvals.mode', value: live.service.setApprovalMode(params.value) };
        } catch (error) {
          if (error instanceof ApprovalModeError) throw new ResponseError(ErrorCode.UsageError, error.message);
          throw error;
        }
      }
      if (params.key === 'plugins.enabled' || params.key === 'plugins.disabled') {
        const value = params.value;
        if (value !== null && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
          throw invalidParams('config.set', 'value', `must be a list of plugin names, or null to remove ${params.key}`);
        }
        try {
          // The plugin host reads the config in memory on its next (re)load.
          ctx.runtime.writeConfig(params.key, value ?? undefined);
        } catch (error) {
          throw new ResponseError(ErrorCode.UsageError, (error as Error).message);
        }
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
      live.service.setYolo(params.value);
      ctx.logger.info('session %s: yolo %s', live.id, params.value ? 'on' : 'off');
      const warning = params.value
        ? 'yolo is on: dangerous commands run without asking in this session (hardline ones still never run).'
        : undefined;
      return { key: 'yolo', value: params.value, ...(warning ? { warning } : {}) };
    },
  };
}
