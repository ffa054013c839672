import { describe, expect, it } from 'vitest';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { approvalPrompt, clarifyPrompt, sessionInfo, tool, usage, viewStore } from '../testing/viewFixtures.ts';
import type { ViewState } from '../state/viewState.ts';
import { formatTokens, StatusLine } from './StatusLine.tsx';

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
    expect(line({ busy: true, live })[0]).toMatch(/^⠋ running read_file… · gpt-test +Ctrl\+C to interrupt$/);
    expect(line({ busy: true, live: { ...live, tools: [], text: 'Hello' } })[0]).toMatch(/^⠋ answering…/);
    expect(line({ busy: true, live: { ...live, tools: [], generating: 'write_file' } })[0]).toMatch(/^⠋ preparing write_file…/);
    expect(line({ busy: true, interrupting: true, live })[0]).toMatch(/^⠋ interrupting… · gpt-test /);
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
    expect(line({ shell: { command: 'npm   test' } })[0]).toMatch(/^⠋ running !npm test… · gpt-test$/);
  });

  it('at 40 columns cuts the details, never the key hint, and stays one row', () => {
    const rows = line({ usage: usage({ total: 2_500_000, context_percent: 88 }), info: sessionInfo({ model: 'claude-sonnet-4-5-20250929', yolo: true }) }, 40);
    expect(rows).toHaveLength(1);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(rows[0]).toMatch(/^● ⚠ YOLO · ready · .*… Shift\+Tab: yolo off$/);
  });

  it('at 60 columns after a turn keeps the model and tokens and the whole key hint on one row', () => {
    const rows = line({ usage: usage({ total: 1_234, context_percent: 3 }), info: sessionInfo({ model: 'scripted-model' }) }, 60);
    expect(rows).toEqual([expect.stringMatching(/^● ready · scripted-model · 1\.2k tokens ·… Shift\+Tab: yolo on$/)]);
    expect(overflowing(rows, 60)).toEqual([]);
  });

  it('formats token counts', () => {
    expect([999, 1_234, 12_345, 999_999, 2_500_000].map(formatTokens)).toEqual(['999', '1.2k', '12k', '1000k', '2.5M']);
  });
});
