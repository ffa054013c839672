/**
 * Check mode: with HERMES_CHECK_RESULTS=1 the backend checks every result and event it sends against
 * its schema, so a handler or emitter that drifts from the contract fails the test that drives it
 * (the test harnesses set it). Off in production: the types already tie handlers to the schemas.
 */
import type { Logger } from '@hermes/agent-core';
import type { ZodMiniType } from 'zod/mini';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode, type EventType, type Method, type ServerRequest } from '../protocol/index.ts';
import { EventSchemas, ServerRequestSchemas } from '../protocol/schemas.ts';
import { describeIssue, valueAt, type Issue } from '../handlers/params.ts';

export const CHECK_RESULTS_ENV = 'HERMES_CHECK_RESULTS';

export function checkingResults(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[CHECK_RESULTS_ENV] === '1';
}

/** Where `value` first disagrees with `schema`: the field and what is wrong with it; undefined when it agrees. */
export function disagreement(schema: ZodMiniType, value: unknown): { field: string; problem: string } | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0] as Issue & { keys?: string[] };
  const at = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    return { field: [...at, issue.keys[0]].join('.'), problem: 'is not in the schema' };
  }
  const found = valueAt(value, issue.path);
  return { field: at.join('.') || '(the whole value)', problem: found === undefined ? 'is missing' : describeIssue(issue, found) };
}

/** Check mode: a result that disagrees with its method's schema is a bug in the handler, answered -32603. */
export function checkResult(method: Method, schema: ZodMiniType, result: unknown, logger: Logger): void {
  const wrong = disagreement(schema, result);
  if (!wrong) return;
  const message = `${method} returned a result its schema refuses: \`${wrong.field}\` ${wrong.problem}`;
  logger.error('contract check: %s', message);
  throw new ResponseError(ErrorCode.InternalError, message, { field: wrong.field });
}

/**
 * Check mode: an event or server request the backend is about to send that its schema refuses is
 * logged and thrown, never sent (the test waiting for it then fails; the log names it and the field).
 * Off otherwise: deltas are many, and the types already tie emitters to the schemas.
 */
function checkSent(what: string, schema: ZodMiniType, value: unknown, logger: Logger): void {
  if (!checkingResults()) return;
  const wrong = disagreement(schema, value);
  if (!wrong) return;
  const message = `contract check: ${what} its schema refuses: \`${wrong.field}\` ${wrong.problem}`;
  logger.error('%s', message);
  throw new Error(message);
}

export function checkEvent(type: EventType, payload: unknown, logger: Logger): void {
  checkSent(`a ${type} event`, EventSchemas[type], payload, logger);
}

export function checkServerRequest(method: ServerRequest, params: unknown, logger: Logger): void {
  checkSent(`a ${method} request`, ServerRequestSchemas[method].params, params, logger);
}
