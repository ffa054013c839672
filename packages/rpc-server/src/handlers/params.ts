/** Params checked against a method's schema (protocol/methodSchemas.ts), refused with -32602 naming the field. */
import type { ZodMiniType } from 'zod/mini';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';

export interface Issue {
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

export function describeIssue(issue: Issue, value: unknown): string {
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

export function valueAt(root: unknown, keyPath: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of keyPath) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
