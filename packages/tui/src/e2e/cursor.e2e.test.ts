/**
 * The terminal's own cursor sits at the composer's caret, so an input method draws its preedit text
 * where the next character goes; it is hidden while a card has the keys.
 */
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_BACKEND, spawnHermes, type HermesPty } from '../testing/ptyHarness.ts';

const running: HermesPty[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((hermes) => hermes.kill()));
});

async function hermesWithFakeBackend(): Promise<HermesPty> {
  const hermes = spawnHermes({ args: ['--tui'], env: { HERMES_RPC_ENTRY: FAKE_BACKEND }, cols: 60, rows: 24 });
  running.push(hermes);
  await hermes.waitForText('Ask hermes anything', 20_000);
  return hermes;
}

describe('terminal cursor', () => {
  it('sits right after the last character of a two-line draft with CJK', async () => {
    const hermes = await hermesWithFakeBackend();
    hermes.paste('first line\n你好 wide 世界');
    const screen = (await hermes.waitForText('  你好 wide 世界')).split('\n');
    const row = screen.findIndex((text) => text.startsWith('  你好 wide 世界'));
    expect(screen[row - 1]).toContain('❯ first line');
    expect(await hermes.cursor()).toEqual({ row, column: stringWidth('  你好 wide 世界'), visible: true });

    hermes.press('left');
    hermes.press('left');
    await expect.poll(async () => (await hermes.cursor()).column).toBe(stringWidth('  你好 wide '));
    expect((await hermes.cursor()).row).toBe(row);
  });

  it('is hidden while an approval card has the keys', async () => {
    const hermes = await hermesWithFakeBackend();
    hermes.type('approve rm -rf build');
    await hermes.waitForText('❯ approve rm -rf build');
    expect((await hermes.cursor()).visible).toBe(true);
    hermes.press('enter');
    await hermes.waitForText('approval needed');
    expect((await hermes.cursor()).visible).toBe(false);
  });
});
