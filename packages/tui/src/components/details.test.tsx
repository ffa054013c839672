/** The `/details` states as drawn: reasoning (hidden, collapsed, expanded) and tool output (hidden, collapsed, expanded). */
import { describe, expect, it } from 'vitest';
import type { LiveTurn as LiveTurnState, ViewState } from '../state/viewState.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { tool, viewState, viewStore } from '../testing/viewFixtures.ts';
import { liveChromeRows, LiveTurn } from './LiveTurn.tsx';
import { TranscriptEntry } from './TranscriptEntry.tsx';

const thinking = (mode: ViewState['details']['thinking'], reasoning: string): Partial<ViewState> => ({
  busy: true,
  details: { thinking: mode, tools: 'collapsed' },
  live: { text: '', reasoning, tools: [], committed: false, sawDelta: true } satisfies LiveTurnState,
});
const drawLive = (fields: Partial<ViewState>, columns = 60) => renderRows(<LiveTurn store={viewStore(fields)} width={columns} maxRows={10} />, columns);

const reasoning = 'First I read the config.\nThen the parser tests.\nFinally the fix.';

describe('reasoning details', () => {
  it('hidden: no reasoning at all, and no rows reserved for it', () => {
    expect(drawLive(thinking('hidden', reasoning))).toEqual(['']);
    expect(liveChromeRows(viewState(thinking('hidden', reasoning)))).toBe(2);
  });

  it('collapsed: its newest words on one row', () => {
    expect(drawLive(thinking('collapsed', reasoning))).toEqual(['', '… I read the config. Then the parser tests. Finally the fix.']);
  });

  it('expanded: its lines, dim, with the rows counted for the height budget', () => {
    const rows = drawLive(thinking('expanded', reasoning));
    expect(rows).toEqual(['', 'thinking: First I read the config.', '  Then the parser tests.', '  Finally the fix.']);
    expect(liveChromeRows(viewState(thinking('expanded', reasoning)))).toBe(2 + 3 + 1);
    const styled = renderStyled(<LiveTurn store={viewStore(thinking('expanded', reasoning))} width={60} maxRows={10} />, 60);
    expect(stylesAt(styled, 'the parser tests')).toEqual(['dim', 'italic']);
  });

  it('expanded: only the newest 12 lines of a long reasoning, each cut to the width', () => {
    const long = Array.from({ length: 30 }, (_, i) => `step ${i + 1} ${'x'.repeat(80)}`).join('\n');
    const rows = drawLive(thinking('expanded', long), 40);
    expect(rows).toHaveLength(1 + 12);
    expect(rows[1]).toMatch(/^thinking: step 19 x+…$/);
    expect(overflowing(rows, 40)).toEqual([]);
  });
});

const output = Array.from({ length: 15 }, (_, i) => `file-${i + 1}.txt`).join('\n');
const finished = { id: 1, kind: 'tool' as const, tool: tool({ context: 'ls', summary: 'file-1.txt (+14 lines)', output }) };
const drawEntry = (tools: ViewState['details']['tools'], columns = 60) =>
  renderRows(<TranscriptEntry item={finished} width={columns} details={{ thinking: 'collapsed', tools }} />, columns);

describe('tool output details', () => {
  it('collapsed (the default): the one row with the summary', () => {
    expect(drawEntry('collapsed')).toEqual(['  ✓ terminal ls · 420ms — file-1.txt (+14 lines)']);
    expect(renderRows(<TranscriptEntry item={finished} width={60} />, 60)).toEqual(drawEntry('collapsed'));
  });

  it('expanded: the output under the row, dim, 12 lines and a count of the rest', () => {
    const rows = drawEntry('expanded');
    expect(rows[0]).toBe('  ✓ terminal ls · 420ms — file-1.txt (+14 lines)');
    expect(rows.slice(1)).toEqual([...Array.from({ length: 12 }, (_, i) => `      file-${i + 1}.txt`), '      … 3 more lines']);
    const styled = renderStyled(<TranscriptEntry item={finished} width={60} details={{ thinking: 'collapsed', tools: 'expanded' }} />, 60);
    expect(stylesAt(styled, 'file-7.txt')).toEqual(['dim']);
  });

  it('hidden: a running tool shows no preview line', () => {
    const running = { ...viewState(), busy: true, live: { text: '', reasoning: '', tools: [tool({ status: 'running', preview: 'compiling 3/9' })], committed: false, sawDelta: false } };
    const shown = renderRows(<LiveTurn store={viewStore(running)} width={60} maxRows={10} />, 60);
    const hidden = renderRows(<LiveTurn store={viewStore({ ...running, details: { thinking: 'collapsed', tools: 'hidden' } })} width={60} maxRows={10} />, 60);
    expect(shown.some((row) => row.includes('compiling 3/9'))).toBe(true);
    expect(hidden.some((row) => row.includes('compiling 3/9'))).toBe(false);
  });

  it('a tool output printed on request (Ctrl+O): titled by the tool, then its lines', () => {
    const item = { id: 2, kind: 'toolOutput' as const, name: 'terminal', context: 'ls', output: 'a.txt\nb.txt\n' };
    expect(renderRows(<TranscriptEntry item={item} width={40} />, 40)).toEqual(['  output of terminal ls', '      a.txt', '      b.txt']);
  });
});
