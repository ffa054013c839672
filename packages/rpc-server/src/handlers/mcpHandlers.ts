import { reloadMcp, testConfiguredServer } from '../server/mcp.ts';
import type { HandlerContext, HandlerTable } from './context.ts';

export function mcpHandlers(ctx: HandlerContext): HandlerTable {
  /** `reload.mcp {always: true}` was answered once: no more confirmations in this backend. */
  let neverAsk = false;
  return {
    'mcp.list': async ({ wait_ms }) => {
      if (wait_ms) await ctx.runtime.mcp.whenDiscovered(wait_ms);
      return { servers: ctx.runtime.mcp.statuses() };
    },

    'mcp.test': ({ name }) => testConfiguredServer(ctx.runtime, name),

    'reload.mcp': async ({ session_id, confirm, always }) => {
      // A given session must be a live one (4001 otherwise); it is the one whose turn matters.
      const scope = session_id ? [ctx.sessions.get(session_id)] : ctx.sessions.all();
      if (always) neverAsk = true;
      const running = scope.filter((live) => live.agent.busy).length;
      if (running && !confirm && !neverAsk) {
        return {
          status: 'confirm_required',
          message:
            `A turn is running${session_id ? '' : ` in ${running} session(s)`}: reloading MCP servers now changes its tools mid-turn ` +
            '(a removed server\'s tools fail if called). Reload anyway?',
        };
      }
      return { status: 'reloaded', message: await reloadMcp(ctx.runtime, ctx.sessions) };
    },
  };
}
