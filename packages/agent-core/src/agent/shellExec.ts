import { execa } from 'execa';
import { redactSecrets } from '../secrets/processSecrets.ts';
import { toolEnvironment } from '../secrets/toolEnvironment.ts';
import type { ApprovalGate } from '../approvals/approvalGate.ts';
import type { AskApproval } from '../approvals/types.ts';
import { clipOutput } from '../tools/outputClip.ts';
import type { ToolSettings } from '../tools/types.ts';

export interface ShellExecResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Exit code reported when the approval gate refused the command (it did not run). */
export const SHELL_BLOCKED_CODE = 126;

/**
 * The composer's `!cmd`: one shell command run for the human, judged by the same approval gate as the
 * model's terminal calls, with separate stdout and stderr, capped like tool output.
 */
export async function shellExec(input: {
  command: string;
  cwd: string;
  sessionId: string;
  yolo: boolean;
  gate: ApprovalGate;
  ask: AskApproval;
  settings: ToolSettings;
  signal?: AbortSignal;
}): Promise<ShellExecResult> {
  const signal = input.signal ?? new AbortController().signal;
  const verdict = await input.gate.check(
    { kind: 'command', toolName: 'shell', command: input.command, cwd: input.cwd },
    { sessionId: input.sessionId, yolo: input.yolo, ask: input.ask, signal },
  );
  if (!verdict.allowed) return { stdout: '', stderr: verdict.message, code: SHELL_BLOCKED_CODE };
  const result = await execa('/bin/bash', ['-c', input.command], {
    cwd: input.cwd,
    reject: false,
    stdin: 'ignore',
    timeout: input.settings.terminalTimeoutS * 1000,
    cancelSignal: signal,
    env: { PAGER: 'cat', GIT_PAGER: 'cat', ...(input.settings.env ?? toolEnvironment(process.env, { dotenvNames: [] })) },
    extendEnv: false,
  });
  const limits = { maxBytes: input.settings.maxBytes, maxLines: input.settings.maxLines };
  let stderr = clipOutput(result.stderr, limits);
  if (result.timedOut) stderr += `\n[killed after ${input.settings.terminalTimeoutS} s (terminal.timeout)]`;
  // What the command printed goes to the screen and the transcript: no secrets.
  return { stdout: redactSecrets(clipOutput(result.stdout, limits)), stderr: redactSecrets(stderr), code: result.exitCode ?? 1 };
}
