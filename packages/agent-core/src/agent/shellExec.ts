import type { ShellExecResult } from '../contract/tools.ts';
import { redactSecrets } from '../secrets/processSecrets.ts';
import type { ApprovalGate } from '../approvals/approvalGate.ts';
import type { AskApproval } from '../approvals/types.ts';
import { clipOutput } from '../tools/outputClip.ts';
import { AWAIT_GO, commandEnvironment, killGroup, loadExeca, release } from '../processes/shellProcess.ts';
import type { ToolSettings } from '../tools/types.ts';

export type { ShellExecResult };

/** Exit code reported when the approval gate refused the command (it did not run). */
export const SHELL_BLOCKED_CODE = 126;

/**
 * The composer's `!cmd`: one shell command run for the human, judged by the same approval gate as the
 * model's terminal calls, with separate stdout and stderr, capped like tool output.
 */
export interface ShellExecInput {
  command: string;
  cwd: string;
  sessionId: string;
  yolo: boolean;
  gate: ApprovalGate;
  ask: AskApproval;
  settings: ToolSettings;
  signal?: AbortSignal;
}

export async function shellExec(input: ShellExecInput): Promise<ShellExecResult> {
  const signal = input.signal ?? new AbortController().signal;
  const verdict = await input.gate.check(
    { kind: 'command', toolName: 'shell', command: input.command, cwd: input.cwd },
    { sessionId: input.sessionId, yolo: input.yolo, ask: input.ask, signal },
  );
  if (!verdict.allowed) return { stdout: '', stderr: verdict.message, code: SHELL_BLOCKED_CODE };
  // Its own process group, watched like the terminal tool's: an interrupt, the timeout or hermes's
  // death (even kill -9) stops the command and everything it started.
  const { execa } = await loadExeca();
  const child = execa('/bin/bash', ['-c', `${AWAIT_GO}${input.command}`], {
    cwd: input.cwd,
    reject: false,
    stdin: 'pipe',
    detached: true,
    env: commandEnvironment(input.settings.env),
    extendEnv: false,
  });
  release(child);
  let timedOut = false;
  const stop = () => {
    if (child.pid !== undefined) killGroup(child.pid);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, input.settings.terminalTimeoutS * 1000);
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) stop();
  const result = await child.finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  });
  const limits = { maxBytes: input.settings.maxBytes, maxLines: input.settings.maxLines };
  let stderr = clipOutput(result.stderr, limits);
  if (timedOut) stderr += `\n[killed after ${input.settings.terminalTimeoutS} s (terminal.timeout)]`;
  else if (signal.aborted) stderr += `${stderr ? '\n' : ''}[stopped: ${signal.reason instanceof Error ? signal.reason.message : 'interrupted'}]`;
  // What the command printed goes to the screen and the transcript: no secrets.
  return { stdout: redactSecrets(clipOutput(result.stdout, limits)), stderr: redactSecrets(stderr), code: result.exitCode ?? 1 };
}

/** The `!cmd`s one session runs now: closing the session stops them and waits for their answers. */
export class SessionShells {
  private readonly runs = new Set<{ controller: AbortController; run: Promise<ShellExecResult> }>();

  get count(): number {
    return this.runs.size;
  }

  /** Runs one `!cmd`; `stopAll` can stop it. */
  run(input: Omit<ShellExecInput, 'signal'>): Promise<ShellExecResult> {
    const controller = new AbortController();
    const run = shellExec({ ...input, signal: controller.signal }).finally(() => this.runs.delete(entry));
    const entry = { controller, run };
    this.runs.add(entry);
    return run;
  }

  /** Stops every `!cmd` now, telling each `reason`; resolves with how many there were, once each has answered. */
  async stopAll(reason: string): Promise<number> {
    const runs = [...this.runs];
    for (const shell of runs) shell.controller.abort(new DOMException(reason, 'AbortError'));
    await Promise.allSettled(runs.map((shell) => shell.run));
    return runs.length;
  }
}
