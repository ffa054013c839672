import { object, optional, string, unknown } from 'zod/mini';
import { ResponseError } from 'vscode-jsonrpc/node';
import { EventType, ErrorCode } from '../protocol/index.ts';
import type { HandlerContext, HandlerTable } from './context.ts';
import { nonEmptyString, parseParams } from './params.ts';
import { sendSessionEvent } from './sessionHandlers.ts';
import { sessionInfo } from './sessionInfo.ts';

const getSchema = object({ key: nonEmptyString() });
const setSchema = object({ key: nonEmptyString(), value: unknown(), session_id: optional(string()) });

/** Keys `config.set` can change so far, and what each does. */
const SETTABLE = 'yolo (per session: true/false)';

export function configHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'config.get': (raw) => {
      const { key } = parseParams('config.get', getSchema, raw);
      let value: unknown = ctx.runtime.loaded.config.raw;
      for (const part of key.split('.')) {
        value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      }
      return { value: value ?? null };
    },

    'config.set': (raw) => {
      const params = parseParams('config.set', setSchema, raw);
      if (params.key !== 'yolo') {
        throw new ResponseError(ErrorCode.UsageError, `config.set cannot change "${params.key}" yet; settable keys: ${SETTABLE}.`);
      }
      if (!params.session_id) throw new ResponseError(ErrorCode.InvalidParams, 'Invalid params for config.set: `session_id` is required for yolo');
      if (typeof params.value !== 'boolean') {
        throw new ResponseError(ErrorCode.InvalidParams, 'Invalid params for config.set: `value` must be true or false for yolo');
      }
      const live = ctx.sessions.get(params.session_id);
      live.agent.yolo = params.value;
      ctx.logger.info('session %s: yolo %s', live.id, params.value ? 'on' : 'off');
      sendSessionEvent(ctx, live, EventType.SessionInfo, sessionInfo(ctx, live));
      const warning = params.value
        ? 'yolo is on: dangerous commands run without asking in this session (hardline ones still never run).'
        : undefined;
      return { key: 'yolo', value: params.value, ...(warning ? { warning } : {}) };
    },
  };
}
