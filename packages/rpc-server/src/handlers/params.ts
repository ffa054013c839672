// Named imports from zod/mini keep the bundle small (the classic `z` namespace pulls in ~700 KB,
// which costs the backend's startup); the schemas here are few and simple.
import { minLength, object, string, type ZodMiniType } from 'zod/mini';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function describeIssue(issue: Issue): string {
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
  const present = valueAt(params, issue.path) !== undefined;
  throw invalidParams(method, field, present ? describeIssue(issue) : 'is required');
}

/** -32602 naming the field: "Invalid params for <method>: `<field>` <problem>". */
export function invalidParams(method: string, field: string, problem: string): ResponseError<{ field: string }> {
  return new ResponseError(ErrorCode.InvalidParams, `Invalid params for ${method}: \`${field}\` ${problem}`, { field });
}

/** A required, non-empty string field. */
export const nonEmptyString = () => string().check(minLength(1, 'must be a non-empty string'));

export const sessionIdSchema = object({ session_id: nonEmptyString() });

function valueAt(root: unknown, keyPath: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of keyPath) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
