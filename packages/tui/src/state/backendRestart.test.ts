/** The view while the backend dies and comes back: what the user saw stays, once, and one line says what happened. */
import { describe, expect, it } from 'vitest';
import type { HermesEvent, SessionOpenResult } from '@hermes/rpc-server/protocol';
import { openResult as sessionOpenResult } from '../testing/sessionFixtures.ts';
import { approvalPrompt } from './promptQueue.ts';
import { reduceAll } from './reducer.ts';
import { initialViewState, notReadyReason, type TranscriptItem, type ViewInput } from './viewState.ts';

const openResult = (sessionId: string, messages: SessionOpenResult['messages'] = []) => sessionOpenResult(sessionId, messages, { cwd: '/p', title: 'Chat' });

const ev = (type: string, payload?: unknown, session_id = 's1'): HermesEvent => ({ type, session_id, payload }) as HermesEvent;
const opened: ViewInput = { type: 'local.sessionOpened', result: openResult('s1') };
const lost: ViewInput = { type: 'local.backendLost' };
const restarted = (messages: SessionOpenResult['messages'] = []): ViewInput => ({
  type: 'local.backendRestarted',
  result: openResult('s2', messages),
  cause: 'exit signal SIGKILL',
});

/** A turn streaming its reply, with a tool still running and an approval card up. */
const midTurn: ViewInput[] = [
  opened,
  { type: 'local.submitted', text: 'count' },
  ev('message.start'),
  ev('message.delta', { text: 'one two' }),
  ev('tool.start', { tool_id: 't1', name: 'terminal', context: 'sleep 9' }),
  ev('message.delta', { text: 'three' }),
  { type: 'local.promptOpened', prompt: approvalPrompt('srq-1', { session_id: 's1', tool_name: 'terminal', command: 'rm x', description: 'd', findings: [], choices: ['once'] }) },
];

const kinds = (items: TranscriptItem[]) => items.map((item) => item.kind);

describe('a backend that dies mid-turn', () => {
  it('keeps the partial reply marked interrupted, marks the running tool interrupted and withdraws the card', () => {
    const state = reduceAll(initialViewState(), [...midTurn, lost]);
    expect(state).toMatchObject({ phase: 'restarting', busy: false, live: undefined, prompts: [] });
    const after = state.transcript.slice(2);
    expect(after).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'one two', continued: false }),
      expect.objectContaining({ kind: 'tool', tool: expect.objectContaining({ toolId: 't1', status: 'interrupted' }) }),
      expect.objectContaining({ kind: 'assistant', text: 'three', continued: true, status: 'interrupted' }),
      expect.objectContaining({ kind: 'notice', level: 'warn', text: 'approval withdrawn: the backend stopped' }),
    ]);
    expect(state.status).toMatch(/restarting/);
  });

  it('marks a turn that had shown nothing yet as interrupted too', () => {
    const state = reduceAll(initialViewState(), [opened, { type: 'local.submitted', text: 'q' }, lost]);
    expect(state.transcript.at(-1)).toMatchObject({ kind: 'assistant', text: '', status: 'interrupted' });
  });

  it('adds nothing to the transcript when the backend dies between turns', () => {
    const before = reduceAll(initialViewState(), [opened]);
    const state = reduceAll(before, [lost]);
    expect(state.transcript).toEqual(before.transcript);
    expect(state.phase).toBe('restarting');
  });

  it('is ignored outside the ready phase (a death during startup is a startup failure)', () => {
    const starting = reduceAll(initialViewState(), [lost]);
    expect(starting.phase).toBe('starting');
    const failed = reduceAll(initialViewState(), [opened, { type: 'local.backendFailed', message: 'x', stderrTail: [] }, lost]);
    expect(failed.phase).toBe('failed');
  });

  it('keeps the partial reply when the backend fails for good, too', () => {
    const state = reduceAll(initialViewState(), [opened, { type: 'local.submitted', text: 'q' }, ev('message.delta', { text: 'partial' }), { type: 'local.backendFailed', message: 'gone', stderrTail: [] }]);
    expect(state.transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'partial', status: 'interrupted' });
    expect(state.phase).toBe('failed');
  });
});

describe('the restarted backend resuming the session', () => {
  it('switches to the new live session with one line and without printing the history again', () => {
    const history: SessionOpenResult['messages'] = [
      { role: 'user', text: 'count' },
      { role: 'assistant', text: 'earlier reply' },
    ];
    const down = reduceAll(initialViewState(), [...midTurn, lost]);
    const state = reduceAll(down, [restarted(history)]);
    expect(state).toMatchObject({ phase: 'ready', sessionId: 's2', busy: false, status: '' });
    expect(state.transcript.slice(0, down.transcript.length)).toEqual(down.transcript);
    const added = state.transcript.slice(down.transcript.length);
    expect(added).toEqual([expect.objectContaining({ kind: 'notice', text: 'backend restarted (exit signal SIGKILL) — session resumed' })]);
    expect(kinds(state.transcript).filter((kind) => kind === 'header')).toHaveLength(1);
  });

  it('shows the new session\'s events and no longer the old one\'s', () => {
    const state = reduceAll(initialViewState(), [opened, lost, restarted(), { type: 'local.submitted', text: 'again' }]);
    const next = reduceAll(state, [ev('message.delta', { text: 'stale' }, 's1'), ev('message.delta', { text: 'fresh' }, 's2')]);
    expect(next.live?.text).toBe('fresh');
  });
});

describe('notReadyReason', () => {
  it('tells a restart apart from startup and from a backend that is gone', () => {
    expect(notReadyReason('restarting')).toMatch(/restarting.*draft is kept/);
    expect(notReadyReason('starting')).toMatch(/still starting/);
    expect(notReadyReason('failed')).toMatch(/not running/);
  });
});
