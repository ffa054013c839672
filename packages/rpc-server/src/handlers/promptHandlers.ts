import { ModelUnavailableError, SessionBusyError } from '@hermes/agent-core';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';
import type { HandlerContext, HandlerTable } from './context.ts';

export function promptHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'prompt.submit': (params) => {
      const live = ctx.sessions.get(params.session_id);
      if (params.text.trim() === '') throw new ResponseError(ErrorCode.UsageError, 'The prompt is empty: type something first.');
      try {
        live.agent.submit(params.text).catch((error: unknown) => {
          ctx.logger.error('turn in session %s ended abnormally: %s', live.id, error);
        });
      } catch (error) {
        if (error instanceof SessionBusyError) throw new ResponseError(ErrorCode.SessionBusy, error.message);
        if (error instanceof ModelUnavailableError) throw new ResponseError(ErrorCode.AgentUnavailable, error.message);
        throw error;
      }
      return { status: 'streaming' };
    },

    'session.interrupt': ({ session_id }) => {
      const interrupted = ctx.sessions.get(session_id).agent.interrupt();
      return { status: interrupted ? 'interrupted' : 'not_interrupted' };
    },
  };
}
