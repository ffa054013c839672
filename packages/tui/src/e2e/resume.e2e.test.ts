/**
 * Long transcripts end to end: the real bundle in a pty, the real backend, stored sessions written
 * through the product's own SessionStore (a live run could not make 10,000 messages or a 5 MB reply
 * quickly). A resumed session prints its last screens and says how to read the rest; `/transcript`
 * hands the whole of it, first message first, to $PAGER; a 5 MB reply is printed to its last line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { benchMessages, writeStoredSession } from '../../../../scripts/bench/lib/sessionHome.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { backendPids, hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(async () => {
  await stopAll(running);
});

const SESSION = '20260101_000000_longsession';

/** The positions `#N` in `text`, in order, each once (a message names its position at its start and end). */
function positions(text: string): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(/#(\d+)\b/g)) {
    const position = Number(match[1]);
    if (out.at(-1) !== position) out.push(position);
  }
  return out;
}

const upTo = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

/**
 * hermes resuming SESSION from `home`, its pager writing to a file; `transcript()` runs /transcript and
 * reads what it paged. The pager names its file only once its input has ended: a text seen earlier may
 * be a part (after a switch of session, the first session's `(#600)` comes long before the second's).
 */
async function resumedWithPager(home: string, last: number) {
  const dir = tempDir('hermes-resume-pager-');
  const paged = path.join(dir, 'paged.txt');
  const part = path.join(dir, 'paged.part');
  const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { home, args: ['--resume', SESSION], env: { PAGER: `cat > '${part}' && mv '${part}' '${paged}'` } });
  await hermes.waitForText(`(#${last})`, 30_000);
  const transcript = async (): Promise<string> => {
    hermes.type('/transcript');
    hermes.press('enter');
    await expect.poll(() => fs.existsSync(paged), { timeout: 60_000, interval: 200 }).toBe(true);
    const text = stripVTControlCharacters(fs.readFileSync(paged, 'utf8'));
    fs.rmSync(paged);
    return text;
  };
  return { hermes, transcript };
}

describe('resuming a long session', () => {
  it('prints the last message and a notice, and /transcript gives the pager every message from the first, in order', async () => {
    const home = tempDir('hermes-resume-home-');
    await writeStoredSession(home, { id: SESSION, title: 'ten thousand' }, benchMessages(10_000));
    const paged = path.join(tempDir('hermes-resume-pager-'), 'paged.txt');
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { home, args: ['--resume', SESSION], env: { PAGER: `cat > '${paged}'` } });
    await hermes.waitForText('(#10000)', 30_000);
    // The resume loaded the session's end; the rest is counted, and read from the backend for the pager.
    expect(hermes.bufferText()).toMatch(/9,500 earlier messages and [\d,]+ entries not printed · \/transcript shows them all/);
    // Only the tail is printed: the first messages are not on the terminal at all.
    expect(hermes.bufferText()).not.toContain('#1 Please look');

    hermes.type('/transcript');
    hermes.press('enter');
    await expect.poll(() => fs.existsSync(paged) && fs.readFileSync(paged, 'utf8').includes('(#10000)'), { timeout: 60_000, interval: 200 }).toBe(true);
    // Styled for `less -R`: read here without the colours.
    const text = stripVTControlCharacters(fs.readFileSync(paged, 'utf8'));
    expect(text).toContain('❯ #1 Please look at src/index.ts');
    expect(positions(text)).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    // Back from the pager, the prompt takes input again.
    await hermes.waitForText('Ask hermes anything');
  }, 180_000);

  it('after /branch of a resumed session, /transcript still gives the pager every message from the first', async () => {
    const home = tempDir('hermes-resume-home-');
    await writeStoredSession(home, { id: SESSION, title: 'six hundred' }, benchMessages(600));
    const { hermes, transcript } = await resumedWithPager(home, 600);
    hermes.type('/branch');
    hermes.press('enter');
    await hermes.waitForText('branched: now in', 30_000);
    // The branch is a copy of all 600 messages: the 100 the resume did not load are read for the pager too.
    expect(positions(await transcript())).toEqual(upTo(600));
  }, 120_000);

  it('/transcript puts the messages a resume did not load before the loaded ones, also when those begin with a system note', async () => {
    const home = tempDir('hermes-resume-home-');
    // The first loaded message (#101 of 600) is a system note, shown as a notice like the resume's own.
    const messages = [...benchMessages(600)].map((message, i) => (i === 100 ? { role: 'system', content: 'a system note (#101)' } : message));
    await writeStoredSession(home, { id: SESSION, title: 'six hundred' }, messages);
    const { transcript } = await resumedWithPager(home, 600);
    expect(positions(await transcript())).toEqual(upTo(600));
  }, 120_000);

  it('a pager closed before the end leaves the TUI working: keys reach the composer again', async () => {
    const home = tempDir('hermes-resume-home-');
    await writeStoredSession(home, { id: SESSION, title: 'ten thousand' }, benchMessages(10_000));
    const paged = path.join(tempDir('hermes-resume-pager-'), 'head.txt');
    // Reads the first screen and quits, as `q` in less does.
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { home, args: ['--resume', SESSION], env: { PAGER: `head -c 3000 > '${paged}'` } });
    await hermes.waitForText('(#10000)', 30_000);
    hermes.type('/transcript');
    hermes.press('enter');
    await expect.poll(() => fs.existsSync(paged) && fs.statSync(paged).size >= 3000, { timeout: 30_000, interval: 100 }).toBe(true);
    expect(stripVTControlCharacters(fs.readFileSync(paged, 'utf8'))).toContain('❯ #1 Please look at src/index.ts');
    hermes.type('still here');
    await hermes.waitForText('still here', 30_000);
    expect(hermes.screenText()).not.toMatch(/pager .* exited with status|could not be written/);
  }, 120_000);

  it('Ctrl+C in the pager is the pager\'s: hermes and its backend go on (no restart), the next prompt is answered', async () => {
    const home = tempDir('hermes-resume-home-');
    await writeStoredSession(home, { id: SESSION, title: 'short' }, benchMessages(20));
    const started = path.join(tempDir('hermes-resume-pager-'), 'started');
    // A pager that ends on Ctrl+C (a shell's default); it says when it runs, so the key comes after.
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'answered after the pager' }] }, { home, args: ['--resume', SESSION], env: { PAGER: `touch '${started}'; sleep 30` } });
    await hermes.waitForText('(#20)', 30_000);
    hermes.type('/transcript');
    hermes.press('enter');
    await expect.poll(() => fs.existsSync(started), { timeout: 30_000, interval: 100 }).toBe(true);
    hermes.press('ctrl-c');
    await hermes.waitForText(/exited with status\s+SIGINT/, 30_000);
    hermes.type('one more question');
    hermes.press('enter');
    await hermes.waitForText('answered after the pager', 30_000);
    expect(backendPids(home)).toHaveLength(1);
  }, 120_000);

  it('prints a 5 MB reply whole: its last line reaches the screen', async () => {
    const home = tempDir('hermes-resume-home-');
    // Lines wider than the screen, so each is wrapped on its way.
    const line = (i: number) => `line ${i} of the long reply, ${'some words and more words '.repeat(5)}`;
    const reply = `${Array.from({ length: 35_000 }, (_, i) => line(i)).join('\n')}\nTHE END OF THE LONG REPLY`;
    expect(reply.length).toBeGreaterThan(5_000_000);
    await writeStoredSession(home, { id: SESSION, title: 'one long reply' }, [
      { role: 'user', content: 'write a lot' },
      { role: 'assistant', content: reply },
    ]);
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '(unused)' }] }, { home, args: ['--resume', SESSION] });
    await hermes.waitForText('THE END OF THE LONG REPLY', 60_000);
    // The lines before it came in order, wrapped as the screen is wide.
    expect(hermes.screenText()).toContain('line 34999 of the long reply, some words');
  }, 120_000);

  it('/transcript after resuming another long session pages that session\'s earlier messages, not the first one\'s', async () => {
    const home = tempDir('hermes-resume-home-');
    await writeStoredSession(home, { id: SESSION, title: 'first' }, benchMessages(600));
    const other = [...benchMessages(600)].map((m) => ({ ...m, content: String(m.content).replace('Please look at', 'Other session, look at') }));
    await writeStoredSession(home, { id: '20260102_000000_othersession', title: 'second' }, other);
    const { hermes, transcript } = await resumedWithPager(home, 600);
    expect((await transcript()).match(/Please look at/g)).toHaveLength(150);

    hermes.type('/resume 20260102_000000_othersession');
    hermes.press('enter');
    await hermes.waitForText('#597 Other session, look at', 30_000);
    const second = await transcript();
    expect(second.match(/Other session, look at/g)).toHaveLength(150);
    // Above it, the first session as the screen showed it: its 500 loaded messages (125 prompts), no more.
    expect(second.match(/Please look at/g)).toHaveLength(125);
  }, 120_000);
});
