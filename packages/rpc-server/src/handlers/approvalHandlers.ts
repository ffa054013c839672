/**
 * `approvals.check`: how the approval gate judges a command or a file write, without a session and
 * without running anything. Served by the full backend and by one started with `--judge-only`.
 */
import os from 'node:os';
import path from 'node:path';
import { judgeCommand, judgeWrite, type Verdict } from '@hermes/agent-core';
import { object, optional } from 'zod/mini';
import { Method, type ApprovalsCheckResult } from '../protocol/index.ts';
import type { HandlerTable } from './context.ts';
import { invalidParams, nonEmptyString, parseParams } from './params.ts';

/** The homes a verdict is judged against: the same ones the runtime hands its ApprovalGate. */
export interface JudgeHomes {
  home: string;
  hermesHome: string;
}

/**
 * As HermesRuntime builds its gate: `HOME` from the process environment, which wins over
 * `$HERMES_HOME/.env`, falling back to the OS's idea of home.
 */
export function judgeHomes(hermesHome: string, dotenv: Record<string, string | undefined>, env: NodeJS.ProcessEnv = process.env): JudgeHomes {
  return { home: env.HOME ?? dotenv.HOME ?? os.homedir(), hermesHome };
}

const checkSchema = object({
  command: optional(nonEmptyString()),
  write_path: optional(nonEmptyString()),
  cwd: optional(nonEmptyString()),
});

/** Only the wire fields: whatever else the judge keeps on a finding stays in the backend. */
function toWire(verdict: Verdict): ApprovalsCheckResult {
  return {
    level: verdict.level,
    findings: verdict.findings.map(({ level, rule, target, why, line }) => ({ level, rule, target, why, ...(line === undefined ? {} : { line }) })),
  };
}

export function approvalHandlers(homes: JudgeHomes): HandlerTable {
  return {
    [Method.ApprovalsCheck]: async (raw: unknown) => {
      const params = parseParams(Method.ApprovalsCheck, checkSchema, raw);
      if (params.command !== undefined && params.write_path !== undefined) {
        throw invalidParams(Method.ApprovalsCheck, 'write_path', 'cannot be given together with `command`: give one of them');
      }
      const ctx = { ...homes, cwd: path.resolve(params.cwd ?? process.cwd()) };
      if (params.command !== undefined) return toWire(await judgeCommand(params.command, ctx));
      if (params.write_path !== undefined) return toWire(judgeWrite(params.write_path, ctx));
      throw invalidParams(Method.ApprovalsCheck, 'command', 'is required (or `write_path` to judge a file write)');
    },
  };
}
