import { describe, expect, it } from 'vitest';
import type { LiveTurn as LiveTurnState, ViewState } from '../state/viewState.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { tool, viewState, viewStore } from '../testing/viewFixtures.ts';
import { liveChromeRows, LiveTurn, MAX_LIVE_TOOLS } from './LiveTurn.tsx';

const live = (fields: Partial<LiveTurnState>): Partial<ViewState> => ({
  busy: true,
  live: { text: '', reasoning: '', tools: [], committed: false, sawDelta: true, ...fields },
});
const draw = (fields: Partial<ViewState>, columns = 80, maxRows = 10) => renderRows(<LiveTurn store={viewStore(fields)} width={columns} maxRows={maxRows} />, columns);

describe('LiveTurn', () => {
  it('draws nothing between turns', () => {
    expect(draw({})).toEqual(['']);
  });

  it('shows the end of the reasoning on one row until the reply starts, dim and italic', () => {
    const reasoning = 'First I look at the config.\nThen I check which tests cover the parser, and finally the fix.';
    const rows = draw(live({ reasoning }), 40);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toBe('');
    expect(rows[1]).toMatch(/^….*and finally the fix\.$/);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(stylesAt(renderStyled(<LiveTurn store={viewStore(live({ reasoning }))} width={40} maxRows={5} />, 40), 'and finally')).toEqual(['dim', 'italic']);
  });

  it("shows the reply's newest rows in its budget, saying how many lines are above", () => {
    const text = Array.from({ length: 30 }, (_, i) => `paragraph line ${i + 1}`).join('\n');
    const rows = draw(live({ text }), 80, 4);
    expect(rows).toEqual(['', '● … 26 more lines above (shown in full when done)', '  paragraph line 27', '  paragraph line 28', '  paragraph line 29', '  paragraph line 30']);
  });

  it('wraps a long reply line at 40 columns inside its budget, CJK included, the "lines above" note on one row', () => {
    const text = `intro\n${'長い返事の行です。'.repeat(8)}`;
    const rows = draw(live({ text }), 40, 3);
    // The top margin, the note, and the three rows of the budget: what liveChromeRows and maxRows promise.
    expect(rows).toHaveLength(1 + 1 + 3);
    expect(rows[1]).toBe('● … 1 more line above (shown in full wh…');
    expect(rows[2]).toMatch(/^ {2}…/);
    expect(rows.at(-1)).toMatch(/行です。$/);
    expect(overflowing(rows, 40)).toEqual([]);
  });

  it('lists the newest running tools, says how many more run, and what is being prepared', () => {
    const tools = Array.from({ length: 6 }, (_, i) => tool({ toolId: `t${i}`, status: 'running', name: `tool${i}`, context: '', durationS: undefined }));
    const rows = draw(live({ tools, generating: 'write_file' }));
    expect(rows).toEqual(['  … 2 more tools running', '  ⠋ tool2', '  ⠋ tool3', '  ⠋ tool4', '  ⠋ tool5', '  preparing write_file…']);
    expect(MAX_LIVE_TOOLS).toBe(4);
    expect(liveChromeRows(viewState(live({ tools, generating: 'write_file' })))).toBe(2 + 4 * 2 + 1 + 1);
  });

  it('continues a reply already partly in the transcript without a second bullet', () => {
    expect(draw(live({ text: 'more text', committed: true }))).toEqual(['', '  more text']);
  });
});
