import type { HandlerContext, HandlerTable } from './context.ts';

export function toolHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'tools.list': () => {
      return { toolsets: ctx.runtime.tools.list(ctx.runtime.toolsets) };
    },

    /** Background processes only; `/stop` interrupts the turn first, then calls this. */
    'process.stop': ({ session_id }) => {
      const storedId = session_id ? ctx.sessions.get(session_id).agent.id : undefined;
      return { killed: ctx.runtime.processes.killAll(storedId) };
    },

    'shell.exec': async (params) => {
      if (params.session_id) return ctx.sessions.get(params.session_id).agent.shellExec(params.command);
      // Without a session there is nobody to ask: the gate denies anything dangerous.
      return ctx.runtime.shellExec(params.command, process.cwd());
    },

    /** Ctrl+C or Esc on a running `!cmd`: its `shell.exec` answers first, marked stopped. */
    'shell.cancel': async ({ session_id }) => {
      return { stopped: await ctx.sessions.get(session_id).service.stopShells() };
    },
  };
}
