/**
 * Long streams through the real TUI, the real backend and the scripted model server: a reply of
 * thousands of deltas is shown whole and in order, and a 5 MB reply is stored whole and its end
 * shown (the live zone lays out only the reply's end and reads each streamed line once).
 */
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { HERMES_BIN, submit } from '../testing/ptyHarness.ts';
import { CLEAN_ENV, hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(async () => {
  await stopAll(running);
});

/** Numbered words `w00000 w00001 …` in paragraphs of 40, with a code block now and then, ending in `end`. */
function numberedReply(words: number, end: string): { text: string; words: string[] } {
  const all = Array.from({ length: words }, (_, i) => `w${String(i).padStart(6, '0')}`);
  const paragraphs: string[] = [];
  for (let at = 0; at < all.length; at += 40) {
    const paragraph = all.slice(at, at + 40).join(' ');
    paragraphs.push(at % 400 === 360 ? `\`\`\`\n${paragraph}\n\`\`\`` : paragraph);
  }
  return { text: `${paragraphs.join('\n\n')}\n\n${end}`, words: all };
}

async function storedReplies(home: string): Promise<string[]> {
  const env = { ...CLEAN_ENV, HERMES_HOME: home };
  const list = await execa(process.execPath, [HERMES_BIN, 'sessions', 'list'], { env, reject: false, stdin: 'ignore' });
  expect(list.exitCode, list.stderr).toBe(0);
  const id = list.stdout.split('\n')[1]!.split(/\s+/)[0]!;
  const json = await execa(process.execPath, [HERMES_BIN, 'sessions', 'export', id, '--format', 'json'], { env, reject: false, stdin: 'ignore', maxBuffer: 64 * 1024 * 1024 });
  expect(json.exitCode, json.stderr).toBe(0);
  const exported = JSON.parse(json.stdout) as { messages: { role: string; text: string }[] };
  return exported.messages.filter((message) => message.role === 'assistant').map((message) => message.text);
}

describe('long streamed replies', () => {
  it('a reply in 10,000 deltas is shown complete and in order', async () => {
    const { text, words } = numberedReply(8_000, 'the-end-of-it');
    const { hermes } = await hermesWithModel(running, { turns: [{ text, chunk_size: Math.ceil(text.length / 10_000) }] }, { rows: 30 });
    await submit(hermes, 'count');
    await hermes.waitForText('the-end-of-it', 60_000);
    await hermes.waitForText(/● ready/);
    // Every word once, in order: nothing lost, repeated or left behind by a repaint of the live zone.
    expect(hermes.bufferText().match(/w\d{6}/g)).toEqual(words);
  }, 120_000);

  it('a long code block is shown whole and in order once it closes (kept in pieces while it streams)', async () => {
    // ~290 kB inside one fence: nothing of it can be committed until it closes, so the live text grows
    // over many of its pieces (state/liveText.ts) and its window is read from them.
    const rows = Array.from({ length: 3_000 }, (_, i) => `row-${String(i).padStart(5, '0')} ${'x'.repeat(80)}`);
    const text = `Here it is:\n\n\`\`\`text\n${rows.join('\n')}\n\`\`\`\n\nafter-the-block`;
    const { hermes } = await hermesWithModel(running, { turns: [{ text, chunk_size: 97 }] }, { rows: 30 });
    await submit(hermes, 'print the table');
    await hermes.waitForText('after-the-block', 60_000);
    await hermes.waitForText(/● ready/);
    expect(hermes.bufferText().match(/row-\d{5}/g)).toEqual(rows.map((row) => row.slice(0, 9)));
  }, 120_000);

  it('a 5 MB reply is complete in the stored session and its end is on screen', async () => {
    const end = 'last-words-of-five-megabytes';
    const { text } = numberedReply(700_000, end);
    expect(text.length).toBeGreaterThan(5_000_000);
    const home = tempDir('hermes-stream-home-');
    const { hermes } = await hermesWithModel(running, { turns: [{ text, chunk_size: 1_000 }] }, { home });
    await submit(hermes, 'write it all');
    await hermes.waitForText(end, 120_000);
    const screen = await hermes.waitForText(/● ready/);
    // The reply's last paragraph right above its last words.
    expect(screen).toMatch(/w699999\n[\s●]*last-words-of-five-megabytes/);
    expect(await storedReplies(home)).toEqual([text]);
  }, 240_000);
});
