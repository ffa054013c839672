/**
 * Check mode: with HERMES_CHECK_RESULTS=1 the backend checks every result and event it sends against
 * its schema, so a handler or emitter that drifts from the contract fails the test that drives it
 * (the test harnesses set it). Off in production: the types already tie handlers to the schemas.
 */
import type { ZodMiniType } from 'zod/mini';
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
