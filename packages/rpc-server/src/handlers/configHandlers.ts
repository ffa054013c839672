import { configValue, MCP_SERVER_NAME, parseMcpServers, parseModelValue, PROVIDER_PRESETS, saveApprovalMode, UsageError, withoutServerSecrets } from '@hermes/agent-core';
import type { HandlerContext, HandlerTable } from './context.ts';
import { invalidParams } from './params.ts';
import { reloadPlugins } from '../server/plugins.ts';

/** Keys `config.set` can change so far, and what each does. */
const SETTABLE =
  'yolo (per session: true/false), model (per session: "name" or "provider:name"), approvals.mode, plugins.enabled, plugins.disabled, mcp_servers.<name>';

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

    'config.set': async (params) => {
      if (params.key === 'model') {
        if (!params.session_id) throw invalidParams('config.set', 'session_id', 'is required for model');
        if (!parseModelValue(params.value)) {
          throw invalidParams('config.set', 'value', 'must be a model name, "provider:name", or {provider, model, base_url}');
        }
        const live = ctx.sessions.get(params.session_id);
        // A model that cannot be used is the service's ModelUnavailableError (5032).
        const { value, deferred } = live.service.setModel(params.value);
        ctx.logger.info('session %s: model %s%s', live.id, value, deferred ? ' (next turn)' : '');
        return { key: 'model', value, ...(deferred ? { warning: 'A turn is running: the new model applies from the next turn.' } : {}) };
      }
      if (params.key === 'approvals.mode') {
        if (typeof params.value !== 'string') throw invalidParams('config.set', 'value', 'must be an approval mode name for approvals.mode');
        // Every session's setting: a session id, when given, must be a live one. A mode that does not exist is ApprovalModeError (4004).
        if (params.session_id) return { key: 'approvals.mode', value: ctx.sessions.get(params.session_id).service.setApprovalMode(params.value) };
        const value = saveApprovalMode(ctx.runtime, params.value);
        for (const live of ctx.sessions.all()) live.service.publishInfo();
        return { key: 'approvals.mode', value };
      }
      if (params.key === 'plugins.enabled' || params.key === 'plugins.disabled') {
        const value = params.value;
        if (value !== null && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
          throw invalidParams('config.set', 'value', `must be a list of plugin names, or null to remove ${params.key}`);
        }
        // The plugins are reloaded from the config in memory. A ConfigWriteError says
        // whether config.yaml is the user's to fix (4004) or the disk failed (5007).
        ctx.runtime.writeConfig(params.key, value ?? undefined);
        return { key: params.key, value, warning: `Saved to config.yaml. ${await reloadPlugins(ctx)}` };
      }
      if (params.key.startsWith('mcp_servers.')) return setMcpServer(ctx, params.key, params.value);
      if (params.key !== 'yolo') {
        throw new UsageError(`config.set cannot change "${params.key}" yet; settable keys: ${SETTABLE}.`);
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

/**
 * `config.set mcp_servers.<name>`: adds or replaces one server entry in config.yaml (comments and
 * layout kept), or removes it with `null`. The entry is checked as config.yaml would be read; a mistake
 * is refused (4004) with the same text a start would report, and nothing is written. Running servers
 * are left as they are: `/reload-mcp` (reload.mcp) applies the file.
 */
function setMcpServer(ctx: HandlerContext, key: string, value: unknown) {
  const name = key.slice('mcp_servers.'.length);
  if (!MCP_SERVER_NAME.test(name)) {
    throw invalidParams('config.set', 'key', `names an MCP server "${name}": use 1 to 64 letters, digits, _ or - (the server's tools are named mcp_<server>_<tool>)`);
  }
  if (value !== null) {
    const { servers, problems } = parseMcpServers({ mcp_servers: { [name]: value } }, 'config.set');
    const wrong = problems.find((p) => p.kind !== 'unknown_key') ?? problems[0];
    if (wrong || servers.length !== 1) throw new UsageError(`config.set ${key}: ${wrong?.message ?? 'not a usable MCP server entry'}; config.yaml was not changed.`);
  }
  // A ConfigWriteError says whether config.yaml is the user's to fix (4004) or the disk failed (5007).
  ctx.runtime.writeConfig(key, value ?? undefined);
  const applies = value === null ? 'disconnects it' : 'connects it';
  return { key, value: withoutServerSecrets(value), warning: `Saved to config.yaml; /reload-mcp (or the next start of hermes) ${applies}.` };
}
