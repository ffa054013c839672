import { enum as oneOf, object } from 'zod/mini';
import { ParamLimit } from '../protocol/index.ts';
import type { HandlerContext, HandlerTable } from './context.ts';
import { cappedString, nonEmptyString, parseParams, sessionId } from './params.ts';

const approvalSchema = object({
  session_id: sessionId(),
  request_id: nonEmptyString(ParamLimit.id),
  choice: oneOf(['once', 'session', 'always', 'deny']),
});
const clarifySchema = object({ request_id: nonEmptyString(ParamLimit.id), answer: cappedString(ParamLimit.answer) });

/** Answers to backend questions from clients that do not take server→client requests. */
export function promptAnswerHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'approval.respond': (raw) => {
      const params = parseParams('approval.respond', approvalSchema, raw);
      const open = ctx.requests.openFor(params.session_id, 'approval');
      if (!open.includes(params.request_id)) return { resolved: 0 };
      return { resolved: ctx.requests.respond(params.request_id, { choice: params.choice }, 'approval') };
    },
    'clarify.respond': (raw) => {
      const params = parseParams('clarify.respond', clarifySchema, raw);
      return { resolved: ctx.requests.respond(params.request_id, { answer: params.answer }, 'clarify') };
    },
  };
}
