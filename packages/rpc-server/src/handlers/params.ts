// Named imports from zod/mini keep the bundle small (the classic `z` namespace pulls in ~700 KB,
// which costs the backend's startup); the schemas here are few and simple.
import { int, lte, maxLength, minLength, number, object, optional, positive, string, type ZodMiniType } from 'zod/mini';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode, ParamLimit } from '../protocol/index.ts';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
  maximum?: number | bigint;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function describeIssue(issue: Issue, value: unknown): string {
  if (issue.code === 'too_big') {
    // The size is read off the value, never copied: a 16 MiB field costs nothing more to refuse.
    if (typeof value === 'string') return `is ${value.length} characters long; the limit is ${issue.maximum}`;
    if (Array.isArray(value)) return `has ${value.length} entries; the limit is ${issue.maximum}`;
    return `is ${String(value)}; the limit is ${issue.maximum}`;
  }
  if (issue.code === 'invalid_type' && issue.expected) return `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
  if (issue.code === 'invalid_value' && issue.values) return `must be one of ${issue.values.map(String).join(', ')}`;
  return issue.message;
}

/**
 * Validates a request's params against a schema; on failure throws -32602 with a message that names
 * the offending field and what it must be.
 */
export function parseParams<T>(method: string, schema: ZodMiniType<T>, params: unknown): T {
  const result = schema.safeParse(params ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0] as Issue;
  const field = issue.path.length ? issue.path.map(String).join('.') : 'params';
  const value = valueAt(params, issue.path);
  throw invalidParams(method, field, value !== undefined ? describeIssue(issue, value) : 'is required');
}

/** -32602 naming the field: "Invalid params for <method>: `<field>` <problem>". */
export function invalidParams(method: string, field: string, problem: string): ResponseError<{ field: string }> {
  return new ResponseError(ErrorCode.InvalidParams, `Invalid params for ${method}: \`${field}\` ${problem}`, { field });
}

/** A string field of at most `cap` characters (see ParamLimit). */
export const cappedString = (cap: number) => string().check(maxLength(cap));

/** A non-empty string field of at most `cap` characters. */
export const nonEmptyString = (cap: number) => string().check(minLength(1, 'must be a non-empty string'), maxLength(cap));

/** A session id: live or stored, or a stored session's title. */
export const sessionId = () => nonEmptyString(ParamLimit.id);

/** An optional session id where the method also serves without one (may be empty: then it names none). */
export const optionalSessionId = () => optional(cappedString(ParamLimit.id));

/** A whole number from 1 to `cap`. */
// The cap is checked first: a huge number is reported against it, not against int()'s own safe-integer bound.
export const count = (cap: number) => number().check(lte(cap), int(), positive('must be a positive whole number'));

export const sessionIdSchema = object({ session_id: sessionId() });

function valueAt(root: unknown, keyPath: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of keyPath) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
