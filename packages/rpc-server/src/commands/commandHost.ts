import path from 'node:path';
import type { CommandHost } from '@hermes/agent-core';
import { describeMissingEnv } from '@hermes/plugin-host';
import type { HandlerContext } from '../handlers/context.ts';
import { openLive } from '../handlers/sessionHandlers.ts';
import type { LiveSession } from '../server/liveSessions.ts';
import { reloadMcp } from '../server/mcp.ts';

/**
 * What slash commands need from this backend beyond their session's service: opening sessions on
 * the wire, and the plugin and tool listings. Every change to the session itself is the service's.
 */
export function commandHost(ctx: HandlerContext, live: LiveSession, reloadPlugins: () => Promise<string>): CommandHost {
  const { runtime } = ctx;
  return {
    newSession: (title) => openLive(ctx, { cwd: live.agent.cwd, title: title ?? null }).session_id,
    // A branch goes on with the model its source was switched to.
    openBranch: (branched, parentId) =>
      openLive(ctx, { cwd: live.agent.cwd, resume: branched, parentId, ...(live.service.overrides ? { overrides: live.service.overrides } : {}) }).session_id,
    listTools: () =>
      runtime.tools
        .list(runtime.toolsets)
        .map((t) => `${t.enabled ? '●' : '○'} ${t.name}: ${t.tools.join(', ')}`)
        .join('\n'),
    listToolsets: () => runtime.tools.list(runtime.toolsets).map((t) => `${t.enabled ? '●' : '○'} ${t.name} — ${t.description}`).join('\n'),
    listPlugins: () => {
      const plugins = ctx.plugins.list();
      if (plugins.length === 0) return `No plugins. Put one in ${path.join(runtime.home, 'plugins')}/<name>/ with a plugin.yaml.`;
      return plugins
        .map(
          (p) =>
            `${p.enabled ? '●' : '○'} ${p.name} ${p.version ?? ''} (${p.source}) tools ${p.tools}, hooks ${p.hooks}, middleware ${p.middleware}, commands ${p.commands}${p.error ? ` — ${p.error}` : ''}` +
            (p.missingEnv.length ? ` — missing env: ${describeMissingEnv(p.missingEnv)}` : ''),
        )
        .join('\n');
    },
    listSkills: () => {
      // The runtime's catalog, the one the skill tools read: the user's skills and the plugins'.
      const skills = runtime.skills.list();
      return skills.length ? skills.map((s) => `${s.name}${s.description ? ` — ${s.description}` : ''}`).join('\n') : 'No skills.';
    },
    reloadPlugins,
    mcpServers: () => runtime.mcp.statuses(),
    // Typed by the user, who is asked nothing: reload.mcp's confirmation is for clients that reload on their own.
    reloadMcp: () => reloadMcp(runtime, ctx.sessions),
  };
}
