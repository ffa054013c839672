import fs from 'node:fs';
import path from 'node:path';
import { withFreshSessionId, type ApprovalsMode, type CommandContext, type SaveFormat, type StoredMessage } from '@hermes/agent-core';
import { stringify } from 'yaml';
import type { HandlerContext } from '../handlers/context.ts';
import { openLive } from '../handlers/sessionHandlers.ts';
import type { LiveSession } from '../server/liveSessions.ts';

function transcriptText(messages: StoredMessage[]): string {
  return messages
    .map((m) => {
      const calls = m.toolCalls?.map((c) => `  → ${c.function.name} ${c.function.arguments}`).join('\n');
      const head = m.role === 'tool' ? `[${m.toolName ?? 'tool'} result]` : `[${m.role}]`;
      return [head, m.content ?? '', calls].filter(Boolean).join('\n');
    })
    .join('\n\n');
}

function markdown(title: string, messages: StoredMessage[]): string {
  const parts = [`# ${title}`];
  for (const m of messages) {
    if (m.role === 'tool') parts.push(`**${m.toolName ?? 'tool'} result**\n\n\`\`\`\n${m.content ?? ''}\n\`\`\``);
    else {
      parts.push(`## ${m.role}\n\n${m.content ?? ''}`);
      for (const c of m.toolCalls ?? []) parts.push(`\`\`\`json\n${c.function.name} ${c.function.arguments}\n\`\`\``);
    }
  }
  return `${parts.join('\n\n')}\n`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What slash commands can do to one live session, backed by the runtime and the wire handlers. */
export function sessionCommandContext(ctx: HandlerContext, live: LiveSession, reloadPlugins: () => Promise<string>): CommandContext {
  const { runtime } = ctx;
  const agent = live.agent;
  const stored = () => runtime.store.getSession(agent.id);
  return {
    isBusy: () => agent.busy,
    interrupt: () => agent.interrupt(),
    stopProcesses: () => runtime.processes.killAll(agent.id),
    newSession: (title) => openLive(ctx, { cwd: agent.cwd, title: title ?? null }).session_id,
    undo: (turns) => {
      agent.reloadPrompt();
      let removed = 0;
      let text = '';
      for (let i = 0; i < Math.max(1, turns); i += 1) {
        const step = runtime.store.undoLastTurn(agent.id);
        if (step.removed === 0) break;
        // Counted in user turns (a turn is the prompt and everything after it).
        removed += 1;
        text = step.text;
      }
      return { removed, text };
    },
    retry: () => {
      agent.reloadPrompt();
      const step = runtime.store.undoLastTurn(agent.id);
      return step.removed > 0 ? step.text : null;
    },
    title: (text) => {
      if (text?.trim()) runtime.store.setTitle(agent.id, text.trim());
      return stored()?.title ?? null;
    },
    branch: (name) => {
      const branched = withFreshSessionId(runtime.store, (id) => runtime.store.branchSession(agent.id, id, name ? { title: name } : {}));
      return openLive(ctx, { cwd: agent.cwd, resume: branched, parentId: agent.id }).session_id;
    },
    compress: async (topic) => {
      const result = await agent.compress(topic);
      return { removed: result?.removed ?? 0, before_tokens: result?.beforeTokens ?? 0, after_tokens: result?.afterTokens ?? 0 };
    },
    usage: () => {
      const u = agent.usage;
      const context = u.context_max ? `, context ${u.context_used ?? 0}/${u.context_max} (${u.context_percent ?? 0}%)` : '';
      const cost = u.cost_usd !== undefined ? `, $${u.cost_usd.toFixed(4)}` : '';
      return `${u.model}: ${u.calls} calls, ${u.input} in / ${u.output} out tokens${context}${cost}`;
    },
    model: () => `${agent.providerId}:${agent.modelName}`,
    setModel: (value) => {
      const colon = value.indexOf(':');
      const flags = colon > 0 ? { provider: value.slice(0, colon), model: value.slice(colon + 1) } : { model: value };
      const model = runtime.sessionModel(flags);
      if (!model.provider) throw new Error(model.unavailable ?? 'That model cannot be used.');
      const { deferred } = agent.switchModel(model);
      return `${model.providerLabel}:${model.modelLabel}${deferred ? ' (from the next turn)' : ''}`;
    },
    listTools: () =>
      runtime.tools
        .list(runtime.toolsets)
        .map((t) => `${t.enabled ? '●' : '○'} ${t.name}: ${t.tools.join(', ')}`)
        .join('\n'),
    listToolsets: () => runtime.tools.list(runtime.toolsets).map((t) => `${t.enabled ? '●' : '○'} ${t.name} — ${t.description}`).join('\n'),
    toggleYolo: () => {
      agent.yolo = !agent.yolo;
      return agent.yolo;
    },
    approvalsMode: (mode?: ApprovalsMode) => {
      if (mode && mode !== runtime.loaded.config.approvals.mode) {
        throw new Error(`Changing the approval mode from a command is not supported yet: set approvals.mode in config.yaml (now ${runtime.loaded.config.approvals.mode}).`);
      }
      return runtime.loaded.config.approvals.mode;
    },
    status: () =>
      [
        `session ${agent.id}${stored()?.title ? ` "${stored()!.title}"` : ''} · ${agent.busy ? 'running' : 'idle'}`,
        `model ${agent.providerId}:${agent.modelName} · cwd ${agent.cwd}`,
        `approvals ${runtime.loaded.config.approvals.mode}${agent.yolo ? ' · YOLO' : ''} · plugins ${ctx.plugins.list().filter((p) => p.enabled).length}`,
      ].join('\n'),
    config: (key) => {
      let value: unknown = runtime.loaded.config.raw;
      for (const part of key ? key.split('.') : []) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      return value === undefined ? `${key} is not set` : stringify(value).trimEnd();
    },
    listPlugins: () => {
      const plugins = ctx.plugins.list();
      if (plugins.length === 0) return `No plugins. Put one in ${path.join(runtime.home, 'plugins')}/<name>/ with a plugin.yaml.`;
      return plugins
        .map((p) => `${p.enabled ? '●' : '○'} ${p.name} ${p.version ?? ''} (${p.source}) tools ${p.tools}, hooks ${p.hooks}, middleware ${p.middleware}, commands ${p.commands}${p.error ? ` — ${p.error}` : ''}`)
        .join('\n');
    },
    listSkills: () => {
      const skills = ctx.plugins.skills;
      return skills.length ? skills.map((s) => `${s.name}${s.description ? ` — ${s.description}` : ''}`).join('\n') : 'No skills.';
    },
    reloadPlugins,
    save: (format: SaveFormat, filename?: string) => {
      const messages = agent.history();
      const title = stored()?.title ?? agent.id;
      const file = path.resolve(agent.cwd, filename ?? `hermes-${agent.id}.${format}`);
      const body =
        format === 'json'
          ? JSON.stringify({ session: stored(), messages }, null, 2)
          : format === 'html'
            ? `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><pre>${escapeHtml(markdown(title, messages))}</pre>\n`
            : markdown(title, messages);
      fs.writeFileSync(file, body);
      return file;
    },
    history: () => transcriptText(agent.history()) || '(no messages yet)',
  };
}
