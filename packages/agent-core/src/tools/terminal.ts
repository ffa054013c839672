import fs from 'node:fs';
import { killGroup, loadExeca, spawnShell } from '../processes/shellProcess.ts';
import { OutputCapture } from './outputClip.ts';
import { displayPath, requireString, resolvePath } from './paths.ts';
import type { ToolContext, ToolDefinition } from './types.ts';

/** Longest foreground run the model may ask for, unless `terminal.timeout` is set higher. */
const MAX_TIMEOUT_S = 600;
/** How long output may keep arriving after the shell exits before leftover children are stopped. */
const STRAGGLER_GRACE_MS = 500;
const PROGRESS_EVERY_MS = 100;
const PROGRESS_LINES = 3;
/** Room for the status line that follows the output. */
const STATUS_BYTES = 250;

type Stop = 'timeout' | 'interrupted' | 'stragglers';

/** Calls `fn` at most every `ms`, always delivering the latest state last. */
function throttle(fn: () => void, ms: number) {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    poke() {
      const wait = ms - (Date.now() - last);
      if (wait <= 0) {
        last = Date.now();
        fn();
      } else {
        timer ??= setTimeout(() => {
          timer = undefined;
          last = Date.now();
          fn();
        }, wait);
      }
    },
    cancel() {
      clearTimeout(timer);
    },
  };
}

function timeoutSeconds(value: unknown, configured: number): number {
  if (value === undefined || value === null) return configured;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error('"timeout" must be a number of seconds above 0');
  return Math.min(value, Math.max(MAX_TIMEOUT_S, configured));
}

/** Where the command will run, as the approval gate must judge it (no check that it exists). */
function workdirPath(args: Record<string, unknown>, context: ToolContext): string {
  return typeof args.workdir === 'string' && args.workdir !== '' ? resolvePath(context.cwd, args.workdir) : context.cwd;
}

function workdir(args: Record<string, unknown>, context: ToolContext): string {
  const given = args.workdir !== undefined && args.workdir !== null && args.workdir !== '';
  if (given) requireString(args, 'workdir');
  const dir = workdirPath(args, context);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`${given ? 'workdir' : 'The working directory'} ${dir} is not an existing directory`);
  }
  return dir;
}

/** Runs a command to completion (or timeout/interrupt), keeping whatever it printed. */
async function runForeground(command: string, cwd: string, timeoutS: number, context: ToolContext): Promise<string> {
  // Leave room for the status line so the whole result fits the limits and is not clipped twice.
  const { maxBytes, maxLines } = context.settings;
  const capture = new OutputCapture({ maxBytes: Math.max(1000, maxBytes - STATUS_BYTES), maxLines: Math.max(4, maxLines - 1) });
  await loadExeca();
  const child = spawnShell(command, cwd, context.settings.env);
  const pid = child.pid;
  let stopped: Stop | null = null;
  const stop = (why: Stop) => {
    if (stopped || pid === undefined) return;
    stopped = why;
    killGroup(pid);
  };
  const progress = throttle(() => context.progress?.(capture.lastLines(PROGRESS_LINES)), PROGRESS_EVERY_MS);
  const timer = setTimeout(() => stop('timeout'), timeoutS * 1000);
  const onAbort = () => stop('interrupted');
  context.signal.addEventListener('abort', onAbort, { once: true });
  if (context.signal.aborted) onAbort();
  let straggler: NodeJS.Timeout | undefined;
  child.all.on('data', (chunk: string) => {
    capture.push(chunk);
    if (context.progress) progress.poke();
  });
  // A child left running in the background (`server &`) keeps the pipe open after the shell exits.
  child.on('exit', () => {
    straggler = setTimeout(() => stop('stragglers'), STRAGGLER_GRACE_MS);
  });
  const result = await child;
  clearTimeout(timer);
  clearTimeout(straggler);
  progress.cancel();
  context.signal.removeEventListener('abort', onAbort);
  if (pid === undefined) throw new Error(`Could not start the shell: ${result.shortMessage ?? 'unknown error'}`);

  const body = capture.empty ? '(no output)' : capture.text().replace(/\n$/, '');
  const status =
    typeof result.exitCode === 'number' ? `[exit code: ${result.exitCode}]` : `[killed by ${result.signal ?? 'a signal'}]`;
  // `stopped` is assigned in callbacks; TypeScript cannot see that.
  const why = stopped as Stop | null;
  const notes: Record<Stop, string> = {
    timeout: `[timed out after ${timeoutS} s: the command and the processes it started were killed; the output above is what it printed until then]`,
    interrupted: `[interrupted ${interruptedBy(context.signal.reason)}: the command and the processes it started were killed; the output above is partial]`,
    stragglers:
      `${status} [the command left background processes holding its output; they were stopped. ` +
      'Use background: true for servers and other long-running processes]',
  };
  return `${body}\n${why ? notes[why] : status}`;
}

/** Abort reasons that mean a plain interrupt: the user's, and a bare `abort()`'s. */
const USER_STOPS = new Set(['', 'interrupted by the user', 'This operation was aborted']);

/** Who stopped the command: the user, or (when hermes shuts down or closes the session) why. */
function interruptedBy(reason: unknown): string {
  const text = reason instanceof Error ? reason.message : '';
  return USER_STOPS.has(text) ? 'by the user' : `(${text})`;
}

export const terminalTool: ToolDefinition = {
  name: 'terminal',
  toolset: 'terminal',
  description:
    'Run a shell command with bash in the working directory. stdout and stderr are merged; the result ends with the exit code. ' +
    'Long output keeps its start and end. Commands get no stdin, so use non-interactive flags. ' +
    'For servers, watchers and other long-running commands pass background: true and use the process tool to read or stop them.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The shell command (bash syntax)' },
      workdir: { type: 'string', description: 'Directory to run in (default: the working directory)' },
      timeout: { type: 'number', description: `Seconds before the command is killed (default from config, at most ${MAX_TIMEOUT_S})` },
      background: { type: 'boolean', description: 'Start it in the background and return at once with its process id' },
    },
    required: ['command'],
  },
  preview: (args) => String(args.command ?? ''),
  approval: (args, context) =>
    typeof args.command === 'string' ? { kind: 'command', toolName: 'terminal', command: args.command, cwd: workdirPath(args, context) } : null,
  async handler(args, context) {
    const command = requireString(args, 'command');
    const cwd = workdir(args, context);
    if (args.background === true) {
      const info = await context.processes.start({ command, cwd, sessionId: context.sessionId, env: context.settings.env });
      return (
        `Started in the background as ${info.id} (pid ${info.pid}) in ${displayPath(context.cwd, cwd)}. ` +
        `Read its output with the process tool ({"action":"output","id":"${info.id}"}); stop it with {"action":"kill","id":"${info.id}"}.`
      );
    }
    return runForeground(command, cwd, timeoutSeconds(args.timeout, context.settings.terminalTimeoutS), context);
  },
};
