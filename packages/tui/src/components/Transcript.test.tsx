import { describe, expect, it } from 'vitest';
import { loadMarkdown } from '../markdown/loadMarkdown.ts';
import { renderRows } from '../testing/renderFrame.ts';
import { sessionInfo, viewStore } from '../testing/viewFixtures.ts';
import { DEFAULT_ROWS, TAIL_SCREENS } from '../transcript/printPlan.ts';
import { Transcript } from './Transcript.tsx';

describe('Transcript', () => {
  it('prints every finished item in order, each at the width it is given, replies once markdown has loaded', async () => {
    const store = viewStore({
      transcript: [
        { kind: 'user', id: 1, text: 'hi' },
        { kind: 'assistant', id: 2, text: 'Hello! What shall we **work on** today in this repository?', continued: false },
        { kind: 'notice', id: 3, level: 'info', text: 'session saved' },
      ],
    });
    // Printed once for good: a reply (and what follows it) waits for the renderer rather than print raw.
    expect(renderRows(<Transcript store={store} width={30} />, 30)).toEqual(['', '❯ hi']);
    await loadMarkdown();
    expect(renderRows(<Transcript store={store} width={30} />, 30)).toEqual([
      '',
      '❯ hi',
      '',
      '● Hello! What shall we work on',
      '  today in this repository?',
      '',
      '· session saved',
    ]);
  });

  it("prints a long resumed session's header and last entries after a notice counting the rest", () => {
    const prompts = Array.from({ length: 500 }, (_, i) => ({ kind: 'user' as const, id: 3 + i, text: `prompt ${i + 1}` }));
    const store = viewStore({
      transcript: [{ kind: 'header', id: 1, info: sessionInfo() }, { kind: 'notice', id: 2, level: 'info', text: 'resumed "x" · 500 messages' }, ...prompts],
    });
    const rows = renderRows(<Transcript store={store} width={80} />, 80);
    // Two rows a prompt (its top margin and its line), for the screens of a terminal of unknown height.
    const shown = (TAIL_SCREENS * DEFAULT_ROWS) / 2;
    expect(rows).toContain('· resumed "x" · 500 messages');
    expect(rows).toContain(`· ${500 - shown} earlier entries not printed · /transcript shows them all`);
    expect(rows.filter((row) => row.startsWith('❯ '))).toEqual(prompts.slice(-shown).map((item) => `❯ ${item.text}`));
  });

  it('prints nothing for an empty transcript', () => {
    expect(renderRows(<Transcript store={viewStore()} width={80} />, 80).join('')).toBe('');
  });
});
