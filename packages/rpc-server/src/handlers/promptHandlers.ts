import { object } from 'zod/mini';
import { ModelUnavailableError, SessionBusyError } from '@hermes/agent-core';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode, ParamLimit } from '../protocol/index.ts';
import type { HandlerContext, HandlerTable } from './context.ts';
import { cappedString, parseParams, sessionId, sessionIdSchema } from './params.ts';

const submitSchema = object({ session_id: sessionId(), text: cappedString(ParamLimit.text) });

export function promptHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'prompt.submit': (raw) => {
      const params = parseParams('prompt.submit', submitSchema, raw);
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

    'session.interrupt': (raw) => {
      const { session_id } = parseParams('session.interrupt', sessionIdSchema, raw);
      const interrupted = ctx.sessions.get(session_id).agent.interrupt();
      return { status: interrupted ? 'interrupted' : 'not_interrupted' };
    },
  };
}
