import type { ApprovalsMode, CommandContext, SaveFormat } from './commandTypes.ts';

/** A CommandContext that records every call, in order, with canned answers the test can change. */
export interface RecordingContext extends CommandContext {
  calls: string[];
  busy: boolean;
  /** what interrupt() reports: was a turn running */
  turnRunning: boolean;
  processes: number;
  lastPrompt: string | null;
}

export function recordingContext(overrides: Partial<RecordingContext> = {}): RecordingContext {
  let yolo = false;
  let mode: ApprovalsMode = 'manual';
  let title: string | null = null;
  const ctx: RecordingContext = {
    calls: [],
    busy: false,
    turnRunning: false,
    processes: 0,
    lastPrompt: 'fix the tests',
    isBusy: () => ctx.busy,
    interrupt: () => (ctx.calls.push('interrupt'), ctx.turnRunning),
    stopProcesses: () => (ctx.calls.push('stopProcesses'), ctx.processes),
    newSession: async (t?: string) => (ctx.calls.push(`newSession(${t ?? ''})`), 'sess-new'),
    undo: (n: number) => (ctx.calls.push(`undo(${n})`), { removed: n, text: 'earlier prompt' }),
    retry: () => (ctx.calls.push('retry'), ctx.lastPrompt),
    title: (t?: string) => (ctx.calls.push(`title(${t ?? ''})`), t === undefined ? title : (title = t)),
    branch: (name?: string) => (ctx.calls.push(`branch(${name ?? ''})`), 'sess-branch'),
    compress: (topic?: string) => (
      ctx.calls.push(`compress(${topic ?? ''})`), { removed: 12, before_tokens: 52_000, after_tokens: 9_100 }
    ),
    usage: () => (ctx.calls.push('usage'), 'usage text'),
    model: () => (ctx.calls.push('model'), 'openrouter/anthropic/claude'),
    setModel: (v: string) => (ctx.calls.push(`setModel(${v})`), v),
    listTools: () => (ctx.calls.push('listTools'), 'tools text'),
    listToolsets: () => (ctx.calls.push('listToolsets'), 'toolsets text'),
    toggleYolo: () => (ctx.calls.push('toggleYolo'), (yolo = !yolo)),
    approvalsMode: (m?: ApprovalsMode) => (ctx.calls.push(`approvalsMode(${m ?? ''})`), (mode = m ?? mode)),
    status: () => (ctx.calls.push('status'), 'status text'),
    config: (key?: string) => (ctx.calls.push(`config(${key ?? ''})`), `config ${key ?? 'all'}`),
    listPlugins: () => (ctx.calls.push('listPlugins'), 'plugins text'),
    listSkills: () => (ctx.calls.push('listSkills'), 'skills text'),
    reloadPlugins: async () => (ctx.calls.push('reloadPlugins'), 'reloaded 2 plugins'),
    save: (format: SaveFormat, filename?: string) => (
      ctx.calls.push(`save(${format},${filename ?? ''})`), `/tmp/${filename ?? 'conversation'}.${format}`
    ),
    history: () => (ctx.calls.push('history'), 'history text'),
    ...overrides,
  };
  return ctx;
}
