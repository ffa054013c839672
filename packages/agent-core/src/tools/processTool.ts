import type { ProcessInfo } from '../processes/processRegistry.ts';
import type { ToolContext, ToolDefinition } from './types.ts';

const DEFAULT_LINES = 100;

function describe(info: ProcessInfo): string {
  const state =
    info.status === 'running' ? 'running' : info.status === 'killed' ? 'killed' : `exited with code ${info.exitCode ?? '?'}`;
  return `${info.id}  pid ${info.pid}  ${state}  ${info.command}`;
}

/** Looks up a process of this session only: one session must not read or kill another's. */
function own(context: ToolContext, id: unknown): ProcessInfo {
  if (typeof id !== 'string' || id === '') throw new Error('"id" is required for this action (see {"action":"list"})');
  const info = context.processes.get(id);
  if (!info || info.sessionId !== context.sessionId) {
    throw new Error(`No background process "${id}" in this session; {"action":"list"} shows them`);
  }
  return info;
}

export const processTool: ToolDefinition = {
  name: 'process',
  toolset: 'terminal',
  description:
    'Manage background processes started with terminal(background: true): "list" them, read recent "output" (last `lines` lines), or "kill" one with its child processes.',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['list', 'output', 'kill'], description: 'What to do' },
      id: { type: 'string', description: 'The process id from terminal or list (for output and kill)' },
      lines: { type: 'integer', description: `How many recent lines to show (output; default ${DEFAULT_LINES})` },
    },
    required: ['action'],
  },
  preview: (args) => [args.action, args.id].filter(Boolean).join(' '),
  handler(args, context) {
    switch (args.action) {
      case 'list': {
        const all = context.processes.list(context.sessionId);
        return all.length ? all.map(describe).join('\n') : 'No background processes in this session.';
      }
      case 'output': {
        const info = own(context, args.id);
        const lines = args.lines === undefined ? DEFAULT_LINES : args.lines;
        if (typeof lines !== 'number' || !Number.isInteger(lines) || lines < 1) throw new Error('"lines" must be a whole number of 1 or more');
        const out = context.processes.output(info.id, lines)!;
        const head = out.dropped > 0 ? `[earlier output not shown: ${out.dropped} characters]\n` : '';
        return `${describe(info)}\n${head}${out.text || '(no output yet)'}`;
      }
      case 'kill': {
        const info = own(context, args.id);
        if (!context.processes.kill(info.id)) return `${info.id} is not running (${describe(info)}).`;
        return `Killed ${info.id} and its child processes.`;
      }
      default:
        throw new Error(`"action" must be one of list, output, kill (found ${JSON.stringify(args.action)})`);
    }
  },
};
