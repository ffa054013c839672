import { object } from 'zod/mini';
import { ParamLimit } from '../protocol/index.ts';
import type { HandlerContext, HandlerTable } from './context.ts';
import { optionalSessionId, nonEmptyString, parseParams } from './params.ts';

const optionalSession = optionalSessionId();
const listSchema = object({ session_id: optionalSession });
const stopSchema = object({ session_id: optionalSession });
const shellSchema = object({ session_id: optionalSession, command: nonEmptyString(ParamLimit.command) });

export function toolHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'tools.list': (raw) => {
      parseParams('tools.list', listSchema, raw);
      return { toolsets: ctx.runtime.tools.list(ctx.runtime.toolsets) };
    },

    /** Background processes only; `/stop` interrupts the turn first, then calls this. */
    'process.stop': (raw) => {
      const { session_id } = parseParams('process.stop', stopSchema, raw);
      const storedId = session_id ? ctx.sessions.get(session_id).agent.id : undefined;
      return { killed: ctx.runtime.processes.killAll(storedId) };
    },

    'shell.exec': async (raw) => {
      const params = parseParams('shell.exec', shellSchema, raw);
      if (params.session_id) return ctx.sessions.get(params.session_id).agent.shellExec(params.command);
      // Without a session there is nobody to ask: the gate denies anything dangerous.
      return ctx.runtime.shellExec(params.command, process.cwd());
    },
  };
}
