import { UsageError } from '@hermes/agent-core';
import type { HandlerContext, HandlerTable } from './context.ts';

export function promptHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'prompt.submit': (params) => {
      const live = ctx.sessions.get(params.session_id);
      if (params.text.trim() === '') throw new UsageError('The prompt is empty: type something first.');
      // Refused at once (SessionBusyError 4009, ModelUnavailableError 5032) or started; the turn's own end is its events.
      live.agent.submit(params.text).catch((error: unknown) => {
        ctx.logger.error('turn in session %s ended abnormally: %s', live.id, error);
      });
      return { status: 'streaming' };
    },

    'session.interrupt': ({ session_id }) => {
      const interrupted = ctx.sessions.get(session_id).agent.interrupt();
      return { status: interrupted ? 'interrupted' : 'not_interrupted' };
    },
  };
}
