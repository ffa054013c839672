/**
 * Keyboard protocols in a real pseudo-terminal against the real backend and a scripted model:
 * Shift+Enter in the kitty and modifyOtherKeys encodings, the terminal handed back as found, Ctrl+G
 * editing the draft in $EDITOR, and a long paste folded to a label in the composer.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, promptsSeen, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };

afterEach(() => stopAll(running));

describe('keyboard protocols in a pseudo-terminal', () => {
  it.each([
    ['kitty', '\x1b[13;2u'],
    ['modifyOtherKeys', '\x1b[27;2;13~'],
  ])('Shift+Enter in the %s encoding starts a new line of the draft', async (_name, shiftEnter) => {
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: 'Two lines received.' }] });
    hermes.type('first line');
    await hermes.waitForText('❯ first line');
    hermes.type(shiftEnter);
    hermes.type('second line');
    await hermes.waitForText('second line');
    hermes.press('enter');
    await hermes.waitForText('Two lines received.');
    expect(promptsSeen(server)).toEqual(['first line\nsecond line']);
  });

  it('asks for the kitty and modifyOtherKeys protocols and switches them off again on exit', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'unused' }] });
    hermes.press('ctrl-d');
    expect((await hermes.exited).exitCode).toBe(0);
    const raw = hermes.rawOutput();
    expect(raw).toContain('\x1b[>1u');
    expect(raw.lastIndexOf('\x1b[<u')).toBeGreaterThan(raw.lastIndexOf('\x1b[>1u'));
    expect(raw.lastIndexOf('\x1b[>4;0m')).toBeGreaterThan(raw.lastIndexOf('\x1b[>4;2m'));
  });

  it('Ctrl+G runs $EDITOR on the draft and puts what it saved back in the composer', async () => {
    // The "editor" prefixes a line to the file it is given, so the test sees it got the draft.
    const editor = join(tempDir('hermes-editor-'), 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\n{ echo "edited above"; cat "$1"; } > "$1.new" && mv "$1.new" "$1"\n');
    chmodSync(editor, 0o755);
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: 'Edited prompt received.' }] }, { env: { EDITOR: editor } });
    hermes.type('the draft');
    await hermes.waitForText('❯ the draft');
    hermes.type('\x07');
    await hermes.waitForText('edited above');
    hermes.press('enter');
    await hermes.waitForText('Edited prompt received.');
    expect(promptsSeen(server)).toEqual(['edited above\nthe draft']);
  });

  it('Ctrl+G with an editor that fails keeps the draft and says why', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'unused' }] }, { env: { EDITOR: 'false' } });
    hermes.type('keep me');
    await hermes.waitForText('❯ keep me');
    hermes.type('\x07');
    await hermes.waitForText('the editor "false" exited with status 1');
    expect(hermes.screenText()).toContain('❯ keep me');
  });

  it('Ctrl+C in an editor that takes no keys itself (line mode) stops the editor, not hermes: the draft stays', async () => {
    // It says when it runs, so the key comes while it does; the terminal is out of raw mode, so Ctrl+C is SIGINT to the whole group.
    const dir = tempDir('hermes-editor-');
    const started = join(dir, 'started');
    const editor = join(dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\ntouch '${started}'\nsleep 30\n`);
    chmodSync(editor, 0o755);
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'Still here.' }] }, { env: { EDITOR: editor } });
    hermes.type('keep me');
    await hermes.waitForText('❯ keep me');
    hermes.type('\x07');
    await expect.poll(() => existsSync(started), { timeout: 15_000, interval: 50 }).toBe(true);
    hermes.press('ctrl-c');
    await hermes.waitForText(/exited with status\s+SIGINT; the draft is\s+unchanged/);
    expect(hermes.screenText()).toContain('❯ keep me');
    hermes.press('enter');
    await hermes.waitForText('Still here.');
  });

  it('a paste of more than 10 lines shows as "[pasted N lines]" and its full text is sent', async () => {
    const long = Array.from({ length: 14 }, (_, i) => `pasted row ${i + 1}`).join('\n');
    const { hermes, server } = await hermesWithModel(running, { turns: [{ text: 'Long paste received.' }] });
    hermes.type('read this: ');
    hermes.paste(long);
    await hermes.waitForText('❯ read this: [pasted 14 lines]');
    expect(hermes.screenText()).not.toContain('pasted row 7');
    hermes.press('enter');
    await hermes.waitForText('Long paste received.');
    expect(promptsSeen(server)).toEqual([`read this: ${long}`]);
  });
});
