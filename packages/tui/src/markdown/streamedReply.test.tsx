import type { HermesEvent } from '@hermes/rpc-server/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveTurn } from '../components/LiveTurn.tsx';
import { Transcript } from '../components/Transcript.tsx';
import { reduceAll } from '../state/reducer.ts';
import { initialViewState, type ViewInput, type ViewState } from '../state/viewState.ts';
import { renderRows } from '../testing/renderFrame.ts';
import { openResult } from '../testing/sessionFixtures.ts';
import { viewStore } from '../testing/viewFixtures.ts';
import { loadMarkdown } from './loadMarkdown.ts';

const ev = (type: string, payload?: unknown): HermesEvent => ({ type, session_id: 's1', payload }) as HermesEvent;
const opened: ViewInput = { type: 'local.sessionOpened', result: openResult('s1') };

/** A reply with one of each block, blank lines inside its fence, and a list split by blank lines. */
const REPLY = [
  '## Plan',
  'Check **the cache** first, then `npm ci`.',
  '',
  '1. Clear it',
  '',
  '2. Rebuild',
  '',
  '```ts',
  'const key = hash(lock);',
  '',
  'restore(key);',
  '```',
  '',
  '| step | time |',
  '|---|--:|',
  '| ci | 40s |',
  '',
  '> Done.',
].join('\n');

/** The transcript's rows (the header left out) after streaming `pieces`. */
function streamed(pieces: readonly string[], columns = 60): string[] {
  const state = reduceAll(initialViewState(), [opened, ev('message.start'), ...pieces.map((text) => ev('message.delta', { text })), ev('message.complete', { text: pieces.join(''), status: 'complete' })]);
  return rows(state, columns);
}

function rows(state: ViewState, columns: number): string[] {
  const transcript = state.transcript.filter((item) => item.kind !== 'header' && item.kind !== 'notice');
  return renderRows(<Transcript store={viewStore({ transcript })} width={columns} />, columns);
}

beforeAll(async () => {
  await loadMarkdown();
});

describe('a streamed reply as markdown', () => {
  it('renders the same whatever deltas it arrived in: split at every boundary', () => {
    const whole = streamed([REPLY]);
    expect(whole.join('\n')).toContain('Plan');
    expect(whole.join('\n')).not.toContain('##');
    expect(whole.join('\n')).not.toContain('```');
    for (let at = 1; at < REPLY.length; at += 1) expect(streamed([REPLY.slice(0, at), REPLY.slice(at)]), `split at ${at}`).toEqual(whole);
  });

  it('renders a resumed reply as it rendered when streamed', () => {
    const history = openResult('s1', [
      { role: 'user', text: 'why is CI slow?' },
      { role: 'assistant', text: REPLY },
    ]);
    const resumed = reduceAll(initialViewState(), [{ type: 'local.sessionOpened', result: history, how: 'resumed' }]);
    const live = reduceAll(initialViewState(), [opened, { type: 'local.submitted', text: 'why is CI slow?' }, ev('message.start'), ev('message.delta', { text: REPLY }), ev('message.complete', { text: REPLY, status: 'complete' })]);
    expect(rows(resumed, 60)).toEqual(rows(live, 60));
    expect(rows(resumed, 60)).toContain('  │ ci   │  40s │');
  });

  it('while streaming, draws the closed blocks as markdown and the open one plain', () => {
    const store = viewStore({ busy: true, live: { text: '## Steps\n1. **one**\n2. tw', reasoning: '', tools: [], committed: false, sawDelta: true } });
    expect(renderRows(<LiveTurn store={store} width={60} maxRows={10} />, 60)).toEqual(['', '● Steps', '', '  1. **one**', '  2. tw']);
    const fence = viewStore({ busy: true, live: { text: 'Run:\n```sh\nnpm ci', reasoning: '', tools: [], committed: false, sawDelta: true } });
    expect(renderRows(<LiveTurn store={fence} width={60} maxRows={10} />, 60)).toEqual(['', '● Run:', '', '  ```sh', '  npm ci']);
  });
});
