import type { HandlerContext, HandlerTable } from './context.ts';

/** Answers to backend questions from clients that do not take server→client requests. */
export function promptAnswerHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'approval.respond': (params) => {
      const open = ctx.requests.openFor(params.session_id, 'approval');
      if (!open.includes(params.request_id)) return { resolved: 0 };
      return { resolved: ctx.requests.respond(params.request_id, { choice: params.choice }, 'approval') };
    },
    'clarify.respond': (params) => {
      return { resolved: ctx.requests.respond(params.request_id, { answer: params.answer }, 'clarify') };
    },
  };
}
