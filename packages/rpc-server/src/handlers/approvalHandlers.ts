/**
 * `approvals.check`: how the approval gate judges a command or a file write, without a session and
 * without running anything. Served by the full backend and by one started with `--judge-only`.
 */
import path from 'node:path';
import { judgeCommand, judgeWrite, type JudgeContext } from '@hermes/agent-core';
import { Method, type ApprovalsCheckResult } from '../protocol/index.ts';
import type { HandlerTable } from './context.ts';
import { invalidParams } from './params.ts';

/** The homes a verdict is judged against: agent-core's `judgeHomes`, as the runtime's gate uses them. */
export type JudgeHomes = Omit<JudgeContext, 'cwd'>;

export function approvalHandlers(homes: JudgeHomes): HandlerTable {
  return {
    // A verdict is the wire's result as it is: findings hold exactly the protocol's fields.
    [Method.ApprovalsCheck]: async (params): Promise<ApprovalsCheckResult> => {
      if (params.command !== undefined && params.write_path !== undefined) {
        throw invalidParams(Method.ApprovalsCheck, 'write_path', 'cannot be given together with `command`: give one of them');
      }
      const ctx = { ...homes, cwd: path.resolve(params.cwd ?? process.cwd()) };
      if (params.command !== undefined) return judgeCommand(params.command, ctx);
      if (params.write_path !== undefined) return judgeWrite(params.write_path, ctx);
      throw invalidParams(Method.ApprovalsCheck, 'command', 'is required (or `write_path` to judge a file write)');
    },
  };
}
