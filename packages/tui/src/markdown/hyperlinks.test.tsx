import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptEntry } from '../components/TranscriptEntry.tsx';
import type { TranscriptItem } from '../state/viewState.ts';
import { renderRows, renderStyled, toRows } from '../testing/renderFrame.ts';
import { hyperlinksSupported, linkableUrl } from './hyperlinks.ts';
import { loadMarkdown } from './loadMarkdown.ts';

const reply = (text: string): TranscriptItem => ({ kind: 'assistant', id: 1, text, continued: false });
const draw = (text: string, columns = 80) => renderRows(<TranscriptEntry item={reply(text)} width={columns} />, columns);
const styled = (text: string, columns = 80) => renderStyled(<TranscriptEntry item={reply(text)} width={columns} />, columns);
const OSC8_OPEN = '\x1b]8;;https://example.com/docs\x1b\\';
const OSC8_CLOSE = '\x1b]8;;\x1b\\';

const forced = process.env.FORCE_HYPERLINK;
beforeAll(async () => {
  await loadMarkdown();
});
afterEach(() => {
  if (forced === undefined) delete process.env.FORCE_HYPERLINK;
  else process.env.FORCE_HYPERLINK = forced;
});

describe('links as OSC 8 hyperlinks', () => {
  it('writes a link as an OSC 8 hyperlink with FORCE_HYPERLINK=1, its text taking only its own width', () => {
    process.env.FORCE_HYPERLINK = '1';
    const text = 'See [the docs](https://example.com/docs) now.';
    const frame = styled(text);
    expect(frame).toContain(OSC8_OPEN);
    expect(frame).toContain(OSC8_CLOSE);
    expect(frame).not.toContain('(https://example.com/docs)');
    expect(draw(text)).toEqual(['', '● See the docs now.']);
    // Wrapped at a narrow width, the rows are laid out by the visible text alone.
    expect(draw('See [the docs](https://example.com/docs) and then more words here', 20)).toEqual([
      '',
      '● See the docs and',
      '  then more words',
      '  here',
    ]);
  });

  it('writes `text (url)` with FORCE_HYPERLINK=0', () => {
    const text = 'See [the docs](https://example.com/docs) now.';
    process.env.FORCE_HYPERLINK = '1';
    expect(styled(text)).toContain(OSC8_OPEN);
    process.env.FORCE_HYPERLINK = '0';
    expect(styled(text)).not.toContain('\x1b]8;;');
    expect(draw(text)).toEqual(['', '● See the docs (https://example.com/docs) now.']);
  });

  it('keeps a URL with an ESC or BEL in it, or one that is not http(s)/mailto, as plain text', () => {
    process.env.FORCE_HYPERLINK = '1';
    for (const url of ['https://example.com/\x1b]52;c;aGk=\x07x', 'https://example.com/a\x07b', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const frame = styled(`See [here](${url}) now.`);
      expect(frame, JSON.stringify(url)).not.toContain('\x1b]8;;');
      expect(frame, JSON.stringify(url)).not.toContain('\x07');
      expect(frame, JSON.stringify(url)).not.toContain('\x1b]52');
      expect(toRows(frame).join('\n'), JSON.stringify(url)).toMatch(/See here \(.+\) now\./);
    }
    expect(linkableUrl('https://example.com/\x1bx')).toBe(false);
    expect(linkableUrl('https://example.com/\x07x')).toBe(false);
    expect(linkableUrl('mailto:me@example.com')).toBe(true);
    expect(linkableUrl('https://example.com/a?b=c#d')).toBe(true);
  });

  it('decides support conservatively from the environment', () => {
    const cases: [NodeJS.ProcessEnv, boolean, boolean][] = [
      [{}, true, false],
      [{ TERM_PROGRAM: 'WezTerm' }, false, false],
      [{ TERM_PROGRAM: 'WezTerm' }, true, true],
      [{ TERM_PROGRAM: 'vscode' }, true, true],
      [{ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.0' }, true, false],
      [{ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.19' }, true, true],
      [{ VTE_VERSION: '4600' }, true, false],
      [{ VTE_VERSION: '6003' }, true, true],
      [{ KITTY_WINDOW_ID: '1' }, true, true],
      [{ WT_SESSION: 'x' }, true, true],
      [{ WT_SESSION: 'x', TMUX: '/tmp/t' }, true, false],
      [{ WT_SESSION: 'x', CI: 'true' }, true, false],
      [{ FORCE_HYPERLINK: '1' }, false, true],
      [{ FORCE_HYPERLINK: '0', WT_SESSION: 'x' }, true, false],
    ];
    for (const [env, isTTY, expected] of cases) expect(hyperlinksSupported(env, isTTY), JSON.stringify({ env, isTTY })).toBe(expected);
  });
});
