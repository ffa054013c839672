import { Profiler } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import { formatCost, formatElapsed, formatTokens } from '../layout/statusFields.ts';
import { reduce } from '../state/reducer.ts';
import { overflowing, renderLive, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { approvalPrompt, clarifyPrompt, sessionInfo, tool, usage, viewStore } from '../testing/viewFixtures.ts';
import type { ViewState } from '../state/viewState.ts';
import { StatusLine } from './StatusLine.tsx';

const line = (fields: Partial<ViewState>, columns = 80) => renderRows(<StatusLine store={viewStore(fields)} />, columns);
const styled = (fields: Partial<ViewState>, columns = 80) => renderStyled(<StatusLine store={viewStore(fields)} />, columns);

describe('StatusLine', () => {
  it('cuts a CJK model name within the terminal\'s width wherever a wide character falls at the edge', () => {
    const model = '你想要哪种颜色的主题呢这是一个很长的问题需要换行显示在窄终端上面测试一下';
    for (const columns of [57, 58, 59, 60, 61]) {
      const rows = renderRows(<StatusLine store={viewStore({ info: sessionInfo({ model }) })} width={columns} />, columns);
      expect(rows).toHaveLength(1);
      expect(overflowing(rows, columns), `at ${columns} columns`).toEqual([]);
      expect(rows[0]).toMatch(/… +Shift\+Tab: yolo on$/);
    }
  });

  it('when ready shows the model, the tokens and context used, and the yolo key on the right', () => {
    const rows = line({ usage: usage({ total: 12_345, context_percent: 41.6 }) });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^● ready · gpt-test · 12k tokens · context 42% +Shift\+Tab: yolo on$/);
    expect(rows[0]).toHaveLength(80);
    expect(stylesAt(styled({}), '●')).toEqual(['green']);
    expect(stylesAt(styled({}), 'gpt-test')).toEqual(['dim']);
  });

  it('while yolo is on says so in red bold, and the key turns it off', () => {
    const fields = { info: sessionInfo({ yolo: true }) };
    expect(line(fields)[0]).toMatch(/^● ⚠ YOLO · ready · gpt-test +Shift\+Tab: yolo off$/);
    expect(stylesAt(styled(fields), '⚠ YOLO')).toEqual(['bold', 'red']);
  });

  it('while a turn runs names what it is doing and how to interrupt, with a spinner', () => {
    const live = { text: '', reasoning: '', tools: [tool({ status: 'running', name: 'read_file' })], committed: false, sawDelta: false };
    expect(line({ busy: true, live })[0]).toMatch(/^⠋ running read_file… · 0s · gpt-test +Ctrl\+C to interrupt$/);
    expect(line({ busy: true, live: { ...live, tools: [], text: 'Hello' } })[0]).toMatch(/^⠋ answering…/);
    expect(line({ busy: true, live: { ...live, tools: [], generating: 'write_file' } })[0]).toMatch(/^⠋ preparing write_file…/);
    expect(line({ busy: true, interrupting: true, live })[0]).toMatch(/^⠋ interrupting… · 0s · gpt-test /);
    expect(line({ busy: true, interrupting: true, live })[0]).not.toContain('Ctrl+C to interrupt');
  });

  it('while a card waits names it, holds the mark still in yellow, and says how to get out', () => {
    expect(line({ prompts: [approvalPrompt({ command: 'rm -rf x' })] })[0]).toMatch(/^● waiting for your approval · gpt-test +Esc or Ctrl\+C to deny$/);
    expect(stylesAt(styled({ prompts: [approvalPrompt({ command: 'rm -rf x' })] }), '●')).toEqual(['yellow']);
    expect(line({ prompts: [approvalPrompt({ command: 'x' }, { pager: { top: 0 } })] })[0]).toMatch(/Esc back · Ctrl\+C to deny$/);
    expect(line({ prompts: [clarifyPrompt('which?')] })[0]).toMatch(/^● waiting for your answer · gpt-test +Esc or Ctrl\+C to decline$/);
  });

  it('says when the backend stopped, when Ctrl+C is armed, and shows a model that is not configured', () => {
    expect(line({ phase: 'failed' })[0]).toMatch(/^● backend stopped · gpt-test +Ctrl\+C twice to exit$/);
    expect(stylesAt(styled({ phase: 'failed' }), '●')).toEqual(['red']);
    expect(line({ exitArmed: true })[0]).toMatch(/Press Ctrl\+C again to exit$/);
    expect(stylesAt(styled({ exitArmed: true }), 'Press Ctrl+C')).toEqual(['bold', 'yellow']);
    expect(line({ info: sessionInfo({ model: '', setup_hint: 'set one' }) })[0]).toMatch(/^● ready · not configured/);
    expect(line({ shell: { command: 'npm   test' } })[0]).toMatch(/^⠋ running !npm test… · 0s · gpt-test$/);
  });

  it('at 40 columns cuts the details, never the key hint, and stays one row', () => {
    const rows = line({ usage: usage({ total: 2_500_000, context_percent: 88 }), info: sessionInfo({ model: 'claude-sonnet-4-5-20250929', yolo: true }) }, 40);
    expect(rows).toHaveLength(1);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(rows[0]).toMatch(/^● ⚠ YOLO · ready · .*… Shift\+Tab: yolo off$/);
  });

  it('at 60 columns after a turn keeps the model and context, drops the tokens, and keeps the whole key hint on one row', () => {
    const store = viewStore({ usage: usage({ total: 1_234, context_percent: 3 }), info: sessionInfo({ model: 'scripted-model' }) });
    const rows = renderRows(<StatusLine store={store} width={60} />, 60);
    expect(rows).toEqual([expect.stringMatching(/^● ready · scripted-model · context 3% +Shift\+Tab: yolo on$/)]);
    expect(overflowing(rows, 60)).toEqual([]);
  });

  it('formats token counts, costs and elapsed times', () => {
    expect([999, 1_234, 12_345, 999_999, 2_500_000].map(formatTokens)).toEqual(['999', '1.2k', '12k', '1000k', '2.5M']);
    expect([0, 0.01234, 3.456].map(formatCost)).toEqual(['$0.0000', '$0.0123', '$3.46']);
    expect([0, 7.9, 65, 3_725].map(formatElapsed)).toEqual(['0s', '7s', '1m 05s', '1h 02m']);
  });
});

describe('StatusLine fields by width', () => {
  const working: Partial<ViewState> = {
    busy: true,
    live: { text: 'Hi', reasoning: '', tools: [], committed: false, sawDelta: true },
    usage: usage({ total: 12_345, context_percent: 41.6, cost_usd: 0.01234 }),
    info: sessionInfo({ model: 'gpt-test', background_tasks: 2 }),
  };
  const at = (fields: Partial<ViewState>, columns: number) => {
    const rows = renderRows(<StatusLine store={viewStore(fields)} width={columns} />, columns);
    expect(rows, `at ${columns} columns`).toHaveLength(1);
    expect(overflowing(rows, columns)).toEqual([]);
    return rows[0]!;
  };

  it('at 120 columns shows every field: model, context, tokens, cost and background tasks', () => {
    expect(at({ ...working, busy: false, live: undefined }, 120)).toMatch(
      /^● ready · gpt-test · 12k tokens · context 42% · \$0\.0123 · 2 background tasks +Shift\+Tab: yolo on$/,
    );
  });

  it('drops whole fields as the terminal narrows: tokens first, then cost, then context; the model stays', () => {
    const idle = { ...working, busy: false, live: undefined };
    expect(at(idle, 80)).toMatch(/^● ready · gpt-test · context 42% · 2 background tasks +Shift\+Tab: yolo on$/);
    expect(at(idle, 60)).toMatch(/^● ready · gpt-test · 2 background tasks +Shift\+Tab: yolo on$/);
    expect(at(idle, 40)).toMatch(/^● ready · gpt-test +Shift\+Tab: yolo on$/);
  });

  it('shows the cost only when the model is priced, and one background task in the singular', () => {
    const fields = { usage: usage({ total: 500 }), info: sessionInfo({ background_tasks: 1 }) };
    expect(at(fields, 120)).toMatch(/^● ready · gpt-test · 500 tokens · 1 background task +Shift/);
    expect(at(fields, 120)).not.toContain('$');
    expect(at({ ...fields, usage: usage({ total: 500, cost_usd: 0 }) }, 120)).toContain('· $0.0000 ·');
  });

  it('while a turn runs keeps the elapsed time and the model longest', () => {
    expect(at(working, 120)).toMatch(/^⠋ answering… · 0s · gpt-test · 12k tokens · context 42% · \$0\.0123 · 2 background tasks +Ctrl\+C to interrupt$/);
    expect(at(working, 80)).toMatch(/^⠋ answering… · 0s · gpt-test · 2 background tasks +Ctrl\+C to interrupt$/);
    expect(at(working, 60)).toMatch(/^⠋ answering… · 0s · gpt-test +Ctrl\+C to interrupt$/);
  });
});

/** Lets Ink draw what the store just changed. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StatusLine over time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the running turn\'s time once a second and hides it when the turn ends', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const store = viewStore({ busy: true, live: { text: '', reasoning: '', tools: [], committed: false, sawDelta: false } });
    const live = renderLive(<StatusLine store={store} width={100} />, { columns: 100 });
    try {
      await settle();
      expect(live.text()).toMatch(/^\S thinking… · 0s · gpt-test/);
      await vi.advanceTimersByTimeAsync(65_000);
      await settle();
      expect(live.text()).toMatch(/thinking… · 1m 05s · gpt-test/);
      store.setState({ busy: false, live: undefined });
      await settle();
      expect(live.text()).toMatch(/^● ready · gpt-test +Shift/);
    } finally {
      live.unmount();
    }
  });

  it('follows the session\'s model and background tasks as session.info reports them', async () => {
    const store = viewStore({});
    const live = renderLive(<StatusLine store={store} width={100} />, { columns: 100 });
    const info = (fields: Parameters<typeof sessionInfo>[0]): HermesEvent => ({ type: 'session.info', session_id: 's1', payload: sessionInfo(fields) });
    try {
      expect(live.text()).toMatch(/^● ready · gpt-test +Shift/);
      store.setState((state) => reduce(state, info({ model: 'claude-haiku', background_tasks: 3 })), true);
      await settle();
      expect(live.text()).toMatch(/^● ready · claude-haiku · 3 background tasks +Shift/);
      store.setState((state) => reduce(state, info({ model: 'claude-haiku' })), true);
      await settle();
      expect(live.text()).toMatch(/^● ready · claude-haiku +Shift/);
    } finally {
      live.unmount();
    }
  });

  it('does not repaint for streamed text: one repaint when the answer starts, none for the deltas after it', async () => {
    // Each delta is its own store update here (no batching), so every one of them could repaint.
    const store = viewStore({ busy: true, live: undefined });
    const view = { store, dispatch: (input: HermesEvent) => store.setState((state) => reduce(state, input), true) };
    let repaints = 0;
    const live = renderLive(
      <Profiler id="status" onRender={(_id, phase) => void (phase === 'update' && (repaints += 1))}>
        <StatusLine store={view.store} width={100} />
      </Profiler>,
      { columns: 100 },
    );
    try {
      const delta = (text: string): HermesEvent => ({ type: 'message.delta', session_id: 's1', payload: { text } });
      view.dispatch({ type: 'message.start', session_id: 's1' } as HermesEvent);
      await settle();
      const start = repaints;
      // Each delta is rendered before the next arrives, as a stream slower than a frame would be.
      for (let i = 0; i < 50; i += 1) {
        view.dispatch(delta(`word${i} `));
        await settle();
      }
      expect(view.store.getState().live?.text).toContain('word49');
      expect(live.text()).toMatch(/answering…/);
      // "thinking…" became "answering…" once; the other 49 deltas changed nothing the line shows.
      expect(repaints - start).toBe(1);
    } finally {
      live.unmount();
    }
  });
});
