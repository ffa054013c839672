import { describe, expect, it } from 'vitest';
import type { HermesEvent, SessionInfo, SessionOpenResult } from '@hermes/rpc-server/protocol';
import { sessionInfo as info, noUsage as usage, openResult } from '../testing/sessionFixtures.ts';
import { approvalPrompt, clarifyPrompt } from './promptQueue.ts';
import { reduce, reduceAll } from './reducer.ts';
import { initialViewState, type ViewInput, type ViewState } from './viewState.ts';

function opened(infoOverrides: Partial<SessionInfo> = {}): ViewInput {
  return { type: 'local.sessionOpened', result: openResult('s1', [], infoOverrides) };
}

const ev = (type: string, payload?: unknown, session_id = 's1'): HermesEvent => ({ type, session_id, payload }) as HermesEvent;
const delta = (text: string) => ev('message.delta', { text });

function run(...inputs: ViewInput[]): ViewState {
  return reduceAll(initialViewState(), [opened(), ...inputs]);
}

/** The transcript as a user reads it, without ids. */
function lines(state: ViewState): string[] {
  return state.transcript.flatMap((item) => {
    switch (item.kind) {
      case 'header':
        return [];
      case 'user':
        return [`you: ${item.text}`];
      case 'assistant':
        return [`${item.continued ? '…' : 'hermes: '}${item.text}${item.status ? ` [${item.status}]` : ''}`];
      case 'tool':
        return [`tool ${item.tool.name} ${item.tool.context} ${item.tool.status}`];
      case 'toolOutput':
        return [`output of ${item.name}: ${item.output}`];
      case 'notice':
        return [`${item.level}: ${item.text}`];
      case 'setup':
        return [];
      case 'config':
        return item.problems.map((p) => `config: ${p.text}`);
      case 'shell':
        return [`shell ${item.command} → ${item.code}: ${item.stdout}${item.stderr}`];
      case 'command':
        return [`command ${item.command}`, ...[item.output, item.warning && `warn: ${item.warning}`, item.error && `error: ${item.error}`].filter((line) => !!line) as string[]];
    }
  });
}

describe('reducer', () => {
  it('opens the session with a header showing model, provider and cwd', () => {
    const state = reduceAll(initialViewState(), [opened()]);
    expect(state.phase).toBe('ready');
    expect(state.transcript[0]).toMatchObject({ kind: 'header', info: { model: 'gpt-test', cwd: '/home/u/project' } });
  });

  it('streams a reply into the live turn, then commits it when the turn completes', () => {
    const streaming = run({ type: 'local.submitted', text: 'hi' }, ev('message.start'), delta('Hel'), delta('lo!'));
    expect(streaming.busy).toBe(true);
    expect(streaming.live?.text).toBe('Hello!');
    expect(lines(streaming)).toEqual(['you: hi']);

    const done = reduceAll(streaming, [ev('message.complete', { text: 'Hello!', status: 'complete', usage: { ...usage, total: 42 } })]);
    expect(lines(done)).toEqual(['you: hi', 'hermes: Hello!']);
    expect(done.busy).toBe(false);
    expect(done.live).toBeUndefined();
    expect(done.usage?.total).toBe(42);
  });

  it('keeps the partial text of an interrupted reply, marked interrupted', () => {
    const state = run(
      { type: 'local.submitted', text: 'count' },
      ev('message.start'),
      delta('one two thr'),
      { type: 'local.interruptSent' },
    );
    expect(state.interrupting).toBe(true);
    const done = reduceAll(state, [ev('message.complete', { text: 'one two thr', status: 'interrupted' })]);
    expect(lines(done)).toEqual(['you: count', 'hermes: one two thr [interrupted]']);
    expect(done.busy).toBe(false);
    expect(done.interrupting).toBe(false);
  });

  it('orders text, tool lines and the text after them as they happened', () => {
    const state = run(
      { type: 'local.submitted', text: 'read it' },
      ev('message.start'),
      delta('Let me look.'),
      ev('tool.start', { tool_id: 't1', name: 'read_file', context: 'notes.txt' }),
      ev('tool.progress', { tool_id: 't1', name: 'read_file', preview: '3 lines' }),
    );
    expect(state.live?.tools).toMatchObject([{ name: 'read_file', status: 'running', preview: '3 lines' }]);
    const done = reduceAll(state, [
      ev('tool.complete', { tool_id: 't1', name: 'read_file', duration_s: 0.2, summary: 'read 3 lines' }),
      delta('It says hi.'),
      ev('message.complete', { text: 'Let me look.It says hi.', status: 'complete' }),
    ]);
    expect(lines(done)).toEqual(['you: read it', 'hermes: Let me look.', 'tool read_file notes.txt done', '…It says hi.']);
    expect(done.transcript[3]).toMatchObject({ tool: { durationS: 0.2, summary: 'read 3 lines' } });
  });

  it('shows a failed tool as failed, and a tool cut off by an interrupt as interrupted', () => {
    const done = run(
      { type: 'local.submitted', text: 'go' },
      ev('message.start'),
      ev('tool.start', { tool_id: 'a', name: 'terminal', context: 'ls /nope' }),
      ev('tool.complete', { tool_id: 'a', name: 'terminal', duration_s: 0.1, error: 'exit 2' }),
      ev('tool.start', { tool_id: 'b', name: 'terminal', context: 'sleep 100' }),
      ev('message.complete', { text: '', status: 'interrupted' }),
    );
    expect(lines(done)).toEqual([
      'you: go',
      'tool terminal ls /nope failed',
      'tool terminal sleep 100 interrupted',
      'hermes:  [interrupted]',
    ]);
  });

  it('commits finished paragraphs while streaming so the live zone stays small', () => {
    const state = run({ type: 'local.submitted', text: 'essay' }, ev('message.start'), delta('First para.\n\nSecond'), delta(' para.\n\nThi'));
    expect(lines(state)).toEqual(['you: essay', 'hermes: First para.', '…Second para.']);
    expect(state.live?.text).toBe('Thi');
    const done = reduceAll(state, [delta('rd.'), ev('message.complete', { text: '', status: 'complete' })]);
    expect(lines(done).at(-1)).toBe('…Third.');
  });

  it('a reply in thousands of tiny deltas commits the same paragraphs as in one delta, and keeps only the open one live', () => {
    const paragraphs = Array.from({ length: 300 }, (_, i) => (i % 10 === 9 ? `\`\`\`\ncode ${i}\n\nmore ${i}\n\`\`\`` : `Paragraph ${i} of the reply.`));
    const reply = paragraphs.join('\n\n');
    const pieces = reply.match(/[\s\S]{1,3}/g)!;
    const start: ViewInput[] = [{ type: 'local.submitted', text: 'long' }, ev('message.start')];
    const streaming = run(...start, ...pieces.map(delta));
    // Only the paragraph being written is live; its scan stopped where its text ends.
    expect(streaming.live?.text).toBe(paragraphs.at(-1)!.slice(0, streaming.live!.text.length));
    expect(streaming.live!.text.length).toBeLessThan(40);
    const done = reduceAll(streaming, [ev('message.complete', { text: reply, status: 'complete' })]);
    const replyText = (state: ViewState) => state.transcript.flatMap((item) => (item.kind === 'assistant' ? [item.text] : [])).join('\n\n');
    expect(replyText(done)).toBe(reply);
    expect(replyText(done)).toBe(replyText(run(...start, delta(reply), ev('message.complete', { text: reply, status: 'complete' }))));
  });

  it('uses the final text when the backend sent no deltas', () => {
    const done = run({ type: 'local.submitted', text: 'q' }, ev('message.start'), ev('message.complete', { text: 'Whole answer', status: 'complete' }));
    expect(lines(done)).toEqual(['you: q', 'hermes: Whole answer']);
  });

  it('drops events of other sessions', () => {
    const state = run({ type: 'local.submitted', text: 'q' }, ev('message.start'), delta('mine'), ev('message.delta', { text: 'theirs' }, 's2'));
    expect(state.live?.text).toBe('mine');
  });

  it('shows how to configure a model once when none is configured, and keeps the app usable', () => {
    const hint = 'No model configured. Run `hermes model` or set model.provider in ~/.hermes/config.yaml';
    const state = reduceAll(initialViewState(), [
      opened({ setup_hint: hint, model: '', provider: '' }),
      ev('error', { message: hint }),
      ev('error', { message: 'OPENAI_API_KEY is not set: add it to ~/.hermes/.env' }),
    ]);
    expect(state.phase).toBe('ready');
    expect(state.setup).toEqual({ hint });
    expect(state.transcript.filter((item) => item.kind === 'setup')).toHaveLength(1);
    expect(lines(state)).toEqual(['error: OPENAI_API_KEY is not set: add it to ~/.hermes/.env']);

    const afterSubmit = reduceAll(state, [
      { type: 'local.submitted', text: 'hello?' },
      { type: 'local.submitFailed', message: hint, code: 5032 },
    ]);
    expect(lines(afterSubmit).slice(1)).toEqual([
      'you: hello?',
      'error: Not sent: no model is configured yet (see the setup instructions above).',
    ]);
    expect(afterSubmit.busy).toBe(false);
    const configured = reduceAll(afterSubmit, [ev('session.info', info({ setup_hint: '' }))]);
    expect(configured.setup).toBeUndefined();
  });

  it('prints config problems once, titled by what is wrong, when a model answers', () => {
    const problems = [{ kind: 'unknown_key' as const, text: '/h/config.yaml line 1: unknown key `approvels` — did you mean `approvals`?' }];
    const state = reduceAll(initialViewState(), [opened({ config_problems: problems }), ev('session.info', info({ config_problems: problems }))]);
    expect(state.setup).toBeUndefined();
    expect(lines(state)).toEqual([`config: ${problems[0]!.text}`]);
    // A new session in the same run does not print them again.
    expect(lines(reduceAll(state, [opened({ config_problems: problems })])).filter((l) => l.startsWith('config:'))).toHaveLength(1);
  });

  it('titles the setup panel by the broken config when that is why no model is configured', () => {
    const problems = [{ kind: 'syntax' as const, text: '/h/config.yaml line 3: is not valid YAML at column 4: …' }];
    const state = reduceAll(initialViewState(), [opened({ setup_hint: `${problems[0]!.text}\nNo model`, config_problems: problems, model: '', provider: '' })]);
    const setup = state.transcript.find((item) => item.kind === 'setup');
    expect(setup).toMatchObject({ title: expect.stringMatching(/^config\.yaml has a syntax error.*no model is configured/) });
    expect(state.transcript.some((item) => item.kind === 'config')).toBe(false);
  });

  it('shows a session error outside setup as an error line', () => {
    expect(lines(run(ev('error', { message: 'database is locked' })))).toEqual(['error: database is locked']);
  });

  it('frees the composer when an interrupt could not reach the turn', () => {
    const state = run({ type: 'local.submitted', text: 'q' }, ev('message.start'), delta('partial'), {
      type: 'local.turnAbandoned',
      reason: 'the backend did not stop the turn',
    });
    expect(state.busy).toBe(false);
    expect(lines(state)).toEqual(['you: q', 'hermes: partial', 'warn: the backend did not stop the turn']);
  });

  it('records a backend failure with its stderr tail', () => {
    const state = run({ type: 'local.submitted', text: 'q' }, { type: 'local.backendFailed', message: 'the backend exited with code 1', stderrTail: ['boom'] });
    expect(state).toMatchObject({ phase: 'failed', busy: false, failure: { message: 'the backend exited with code 1', stderrTail: ['boom'] } });
  });

  it('shows status updates, and warnings also as transcript lines', () => {
    const state = run(ev('status.update', { kind: 'compressing', text: 'compressing context…' }));
    expect(state.status).toBe('compressing context…');
    expect(lines(reduceAll(state, [ev('status.update', { kind: 'warn', text: 'context 90% full' })]))).toEqual(['warn: context 90% full']);
  });

  it('shows a call the approval gate refused as blocked, with the reason', () => {
    const state = run(
      ev('message.start'),
      ev('tool.start', { tool_id: 'a', name: 'terminal', context: 'rm -rf /' }),
      ev('tool.complete', { tool_id: 'a', name: 'terminal', duration_s: 0, error: 'denied by the user', blocked: true }),
    );
    expect(lines(state)).toEqual(['tool terminal rm -rf / blocked']);
    expect(state.transcript.at(-1)).toMatchObject({ tool: { error: 'denied by the user' } });
  });

  it('keeps the diff of a file change with the finished tool row', () => {
    const diff = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
    const state = run(
      ev('tool.start', { tool_id: 'w', name: 'write_file', context: 'x' }),
      ev('tool.complete', { tool_id: 'w', name: 'write_file', duration_s: 0.01, inline_diff: diff }),
    );
    expect(state.transcript.at(-1)).toMatchObject({ kind: 'tool', tool: { status: 'done', diff } });
  });

  it('keeps what a tool returned with its row, for /details tools expanded; sets the modes and the todo list', () => {
    const state = run(
      ev('tool.start', { tool_id: 't', name: 'terminal', context: 'ls' }),
      ev('tool.complete', { tool_id: 't', name: 'terminal', duration_s: 0.01, summary: 'a.txt', result: 'a.txt\nb.txt\n' }),
      { type: 'local.detailsSet', details: { thinking: 'hidden', tools: 'expanded' } },
      ev('todo.updated', { todos: [{ id: '1', content: 'read', status: 'pending' }], revision: 1 }),
    );
    expect(state.transcript.at(-1)).toMatchObject({ kind: 'tool', tool: { output: 'a.txt\nb.txt\n' } });
    expect(state.details).toEqual({ thinking: 'hidden', tools: 'expanded' });
    expect(state.todos).toEqual([{ id: '1', content: 'read', status: 'pending' }]);
  });

  it('Ctrl+O prints the newest tool\'s output and expands the rows that follow; again, collapses', () => {
    const toolRan = [
      ev('tool.start', { tool_id: 't', name: 'terminal', context: 'ls' }),
      ev('tool.complete', { tool_id: 't', name: 'terminal', duration_s: 0.01, summary: 'a.txt', result: 'a.txt\nb.txt' }),
    ];
    const once = run(...toolRan, { type: 'local.toolDetailsToggled' });
    expect(lines(once).at(-1)).toBe('output of terminal: a.txt\nb.txt');
    expect(once.details.tools).toBe('expanded');
    const twice = reduce(once, { type: 'local.toolDetailsToggled' });
    expect(twice.details.tools).toBe('collapsed');
    expect(twice.transcript).toBe(once.transcript);
  });

  it('updates a running tool\'s output line as progress arrives', () => {
    const state = run(
      ev('tool.start', { tool_id: 't', name: 'terminal', context: 'make' }),
      ev('tool.progress', { tool_id: 't', name: 'terminal', preview: 'cc a.c' }),
      ev('tool.progress', { tool_id: 't', name: 'terminal', preview: 'cc a.c\ncc b.c' }),
    );
    expect(state.live?.tools[0].preview).toBe('cc a.c\ncc b.c');
  });
});

describe('prompt queue', () => {
  const approval = (id: string, command: string) =>
    approvalPrompt(id, { session_id: 's1', tool_name: 'terminal', command, description: 'dangerous', findings: [], choices: ['once', 'deny'] });

  it('queues questions in arrival order and shows the first; answering records it and shows the next', () => {
    const first = approval('srq-1', 'rm a');
    const second = clarifyPrompt('srq-2', { session_id: 's1', question: 'Which?', choices: ['x', ''] });
    let state = run({ type: 'local.promptOpened', prompt: first }, { type: 'local.promptOpened', prompt: second });
    expect(state.prompts.map((p) => p.id)).toEqual(['srq-1', 'srq-2']);
    expect(state.prompts[1]).toMatchObject({ choices: ['x'], selected: 0, text: '' });
    state = reduceAll(state, [{ type: 'local.promptChanged', prompt: { ...first, selected: 0 } }]);
    expect(state.prompts[0]).toMatchObject({ selected: 0 });
    state = reduceAll(state, [{ type: 'local.promptAnswered', id: 'srq-1', record: 'allowed once: terminal rm a' }]);
    expect(state.prompts.map((p) => p.id)).toEqual(['srq-2']);
    expect(lines(state)).toEqual(['info: allowed once: terminal rm a']);
  });

  it('takes a withdrawn question down with a notice, and ignores a cancel for one already answered', () => {
    let state = run({ type: 'local.promptOpened', prompt: approval('srq-1', 'rm a') });
    state = reduceAll(state, [ev('request.cancel', { id: 'srq-1', method: 'approval', reason: 'timeout' })]);
    expect(state.prompts).toEqual([]);
    expect(lines(state)).toEqual(['warn: approval withdrawn: timed out']);
    expect(reduceAll(state, [ev('request.cancel', { id: 'srq-1', method: 'approval', reason: 'timeout' })])).toBe(state);
  });

  it('carries the findings on the card, and keeps a malformed one rather than losing a reason', () => {
    const finding = { level: 'hardline', rule: 'delete.recursive', target: 'home', why: 'deletes ~ recursively' } as const;
    const request = { session_id: 's1', tool_name: 'terminal', command: 'rm -rf ~', description: 'd', choices: ['once' as const] };
    const state = run({
      type: 'local.promptOpened',
      prompt: approvalPrompt('srq-1', { ...request, findings: [finding, { rule: 'write.protected' }, 'junk'] as never }),
    });
    expect(state.prompts[0]).toMatchObject({
      findings: [finding, { level: 'dangerous', rule: 'write.protected', target: '?', why: '' }],
    });
    // A backend from before findings: the card still opens, with none.
    expect(approvalPrompt('srq-2', { ...request } as never)).toMatchObject({ findings: [] });
  });

  it('keeps the line a finding names, and drops one that is no line number', () => {
    const finding = { level: 'dangerous', rule: 'delete.recursive', target: 'x', why: 'deletes x' } as const;
    const request = { session_id: 's1', tool_name: 'terminal', command: 'echo\nrm -rf x', description: 'd', choices: ['once' as const] };
    const lines = [2, 0, 1.5, '2'].map((line) => ({ ...finding, line }));
    const prompt = approvalPrompt('srq-1', { ...request, findings: lines as never });
    expect(prompt.kind === 'approval' && prompt.findings).toEqual([{ ...finding, line: 2 }, finding, finding, finding]);
  });

  it('takes every card of a session down when another session takes the screen, and withdraws silently when the TUI exits', () => {
    const switched = run({ type: 'local.promptOpened', prompt: approval('srq-1', 'rm a') }, opened({ stored_session_id: 'stored-2' }));
    expect(switched.prompts).toEqual([]);
    const exiting = run(
      { type: 'local.promptOpened', prompt: approval('srq-1', 'rm a') },
      { type: 'local.promptWithdrawn', id: 'srq-1', reason: 'exiting' },
    );
    expect(exiting.prompts).toEqual([]);
    expect(lines(exiting)).toEqual([]);
  });

  it('drops every card when the backend fails', () => {
    const state = run(
      { type: 'local.promptOpened', prompt: approval('srq-1', 'rm a') },
      { type: 'local.backendFailed', message: 'gone', stderrTail: [] },
    );
    expect(state.prompts).toEqual([]);
  });
});

describe('!cmd and yolo', () => {
  it('echoes a !cmd while it runs, then prints its result; the composer is not a model turn meanwhile', () => {
    const running = run({ type: 'local.shellStarted', command: 'echo hello' });
    expect(running.shell).toEqual({ command: 'echo hello' });
    expect(running.busy).toBe(false);
    expect(lines(running)).toEqual(['you: !echo hello']);
    const done = reduceAll(running, [{ type: 'local.shellFinished', command: 'echo hello', stdout: 'hello\n', stderr: '', code: 0 }]);
    expect(done.shell).toBeUndefined();
    expect(lines(done)).toEqual(['you: !echo hello', 'shell echo hello → 0: hello\n']);
  });

  it('reports a shell.exec that failed as an error and frees the composer', () => {
    const state = run({ type: 'local.shellStarted', command: 'ls' }, { type: 'local.shellFailed', command: 'ls', message: 'session not found' });
    expect(state.shell).toBeUndefined();
    expect(lines(state).at(-1)).toBe('error: !ls failed: session not found');
  });

  it('Ctrl+C on a !cmd marks it interrupting; its stopped answer clears that and "still running" from the status line', () => {
    const running = run(
      { type: 'local.shellStarted', command: 'sleep 30' },
      { type: 'local.status', text: '!sleep 30 is still running — wait, or press Ctrl+C to stop it' },
      { type: 'local.interruptSent' },
    );
    expect(running.interrupting).toBe(true);
    const stopped = reduceAll(running, [{ type: 'local.shellFinished', command: 'sleep 30', stdout: '', stderr: '[stopped: interrupted by the user]', code: 1 }]);
    expect(stopped).toMatchObject({ shell: undefined, interrupting: false, status: '' });
    const failed = reduceAll(running, [{ type: 'local.shellFailed', command: 'sleep 30', message: 'the backend stopped before it finished' }]);
    expect(failed).toMatchObject({ shell: undefined, interrupting: false, status: '' });
  });

  it('says what yolo means with the backend\'s warning, and says when it is off again', () => {
    const warning = 'yolo is on: dangerous commands run without asking in this session.';
    const on = run(ev('session.info', info({ yolo: true })), { type: 'local.yoloChanged', value: true, warning });
    expect(on.info?.yolo).toBe(true);
    expect(lines(on).at(-1)).toBe(`warn: ${warning}`);
    const off = reduceAll(on, [ev('session.info', info({ yolo: false })), { type: 'local.yoloChanged', value: false }]);
    expect(off.info?.yolo).toBe(false);
    expect(lines(off).at(-1)).toMatch(/^info: yolo is off/);
  });

  it('keeps the session\'s yolo as session.info last said it: the config.set answer does not set it a second way', () => {
    const state = run(ev('session.info', info({ yolo: false })), { type: 'local.yoloChanged', value: true });
    expect(state.info?.yolo).toBe(false);
  });

  it('follows yolo from session.info too (another client, or the backend\'s own change)', () => {
    const state = run(ev('session.info', info({ yolo: true })));
    expect(state.info?.yolo).toBe(true);
  });
});

describe('switching sessions', () => {
  const result = (session_id: string, messages: SessionOpenResult['messages'], title: string | null = 'Notes'): SessionOpenResult => ({
    session_id,
    stored_session_id: `stored-${session_id}`,
    message_count: messages.length,
    messages,
    info: info({ title }),
  });

  it('prints a resumed session\'s history after its header, and follows the new session\'s events only', () => {
    const history = [
      { role: 'user' as const, text: 'hi' },
      { role: 'assistant' as const, text: 'hel', status: 'interrupted' as const },
    ];
    const state = run(
      { type: 'local.submitted', text: 'old prompt' },
      { type: 'local.sessionOpened', result: result('s2', history), how: 'resumed' },
      ev('message.delta', { text: 'from the old session' }, 's1'),
    );
    expect(state.busy).toBe(false);
    expect(state.sessionId).toBe('s2');
    expect(state.title).toBe('Notes');
    expect(lines(state).slice(1)).toEqual([
      'info: resumed "Notes" · 2 messages',
      'you: hi',
      'hermes: hel [interrupted]',
      'warn: interrupted (the previous run ended before this reply finished)',
    ]);
    expect(state.transcript.filter((item) => item.kind === 'header')).toHaveLength(2);
  });

  it('says a branch was made without printing the copied history again', () => {
    const state = run({ type: 'local.sessionOpened', result: result('s3', [{ role: 'user', text: 'hi' }], 'try-b'), how: 'branched' });
    expect(lines(state)).toEqual([expect.stringMatching(/^info: branched: now in "try-b", a copy of the 1 messages above/)]);
    expect(state.transcript.filter((item) => item.kind === 'header')).toHaveLength(1);
  });

  it('after /clear the transcript starts again at the new session\'s header, and the screen counts one more clear', () => {
    const before = run({ type: 'local.submitted', text: 'old prompt' }, ev('message.complete', { text: 'old answer', status: 'complete' }));
    const state = reduceAll(before, [
      { type: 'local.commandRan', command: '/clear', output: 'Started a new session.' },
      { type: 'local.sessionOpened', result: result('s2', []), clear: true },
    ]);
    expect(state.transcript.map((item) => item.kind)).toEqual(['header']);
    expect(state.cleared).toBe(1);
    // Ids keep counting: an item is never mistaken for one printed before the clear.
    expect(state.transcript[0]!.id).toBeGreaterThan(Math.max(...before.transcript.map((item) => item.id)));
    const again = reduceAll(state, [{ type: 'local.sessionOpened', result: result('s3', []), clear: true }]);
    expect(again.cleared).toBe(2);
    // /new keeps what is on screen.
    const kept = reduceAll(before, [{ type: 'local.sessionOpened', result: result('s2', []) }]);
    expect(kept.cleared).toBeUndefined();
    expect(lines(kept)).toEqual(['you: old prompt', 'hermes: old answer']);
  });

  it('prints a command with its multi-line output, warning or refusal as one block, even mid-turn', () => {
    const state = run(
      { type: 'local.submitted', text: 'long job' },
      { type: 'local.commandRan', command: '/help', output: 'Commands:\n  /help  show this' },
      { type: 'local.commandRan', command: '/undo', warning: 'Nothing to undo.' },
      { type: 'local.commandRan', command: '/hepl', error: '/hepl is not a command. Did you mean /help?' },
    );
    expect(lines(state)).toEqual([
      'you: long job',
      'command /help',
      'Commands:\n  /help  show this',
      'command /undo',
      'warn: Nothing to undo.',
      'command /hepl',
      'error: /hepl is not a command. Did you mean /help?',
    ]);
    expect(state.busy).toBe(true);
  });
});
