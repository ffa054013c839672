import { z } from 'zod';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';

/**
 * Validates a request's params against a schema; on failure throws -32602 with a message that names
 * the offending field and what it must be.
 */
export function parseParams<T>(method: string, schema: z.ZodType<T>, params: unknown): T {
  const result = schema.safeParse(params ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : 'params';
  const present = valueAt(params, issue.path) !== undefined;
  const message = present ? `\`${field}\`: ${issue.message}` : `\`${field}\` is required`;
  throw new ResponseError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${message}`, { field });
}

export const sessionIdSchema = z.object({ session_id: z.string().min(1, 'must be a non-empty string') });

function valueAt(root: unknown, keyPath: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of keyPath) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
