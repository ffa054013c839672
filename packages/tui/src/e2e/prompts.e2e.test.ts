/**
 * Approval and clarify cards in a real pseudo-terminal, with the scripted fake backend: its prompts
 * `approve …`, `approve-two`, `approve-lookalike` and `clarify` ask the TUI and echo the answer back as
 * the reply, so each test sees on screen what was sent over the wire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_BACKEND, spawnHermes, submit, type HermesPty } from '../testing/ptyHarness.ts';

const running: HermesPty[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((hermes) => hermes.kill()));
});

async function hermesWithFakeBackend(size: { cols?: number; rows?: number } = {}): Promise<HermesPty> {
  const hermes = spawnHermes({ args: ['--tui'], env: { HERMES_RPC_ENTRY: FAKE_BACKEND }, ...size });
  running.push(hermes);
  await hermes.waitForText('Ask hermes anything', 20_000);
  return hermes;
}

const CARD = '⚠ approval needed · terminal';
/** Whitespace and the card's side borders between two pieces of text on it. */
const GAP = '[\\s│║]+';
const onCard = (...parts: string[]) => new RegExp(parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(GAP));

describe('approval and clarify cards', () => {
  it('shows the approval card with Deny selected, so Enter alone denies', async () => {
    const hermes = await hermesWithFakeBackend();
    await submit(hermes, 'approve rm -rf build');
    const card = await hermes.waitForText(CARD);
    expect(card).toContain('recursive delete');
    expect(card).toContain('rm -rf build');
    expect(card).toMatch(onCard('1 Allow once', '2 Allow for this session', '3 Always allow (saved to config)', '❯ 4 Deny'));
    expect(card).toContain('waiting for your approval');

    // Letters typed at the card neither approve nor end up in the prompt.
    hermes.type('yes');
    hermes.press('enter');
    const after = await hermes.waitForText('approval: deny');
    expect(after).not.toContain(CARD);
    expect(after).toContain('denied: terminal rm -rf build');
    expect(after).toMatch(/⊘ terminal rm -rf build — blocked: the user denied this command/);
    await hermes.waitForText('● ready');
    expect(hermes.screenText()).not.toContain('❯ yes');
  });

  it('approves once with 1 then Enter', async () => {
    const hermes = await hermesWithFakeBackend();
    await submit(hermes, 'approve make clean');
    await hermes.waitForText(CARD);
    hermes.type('1');
    await hermes.waitForText('❯ 1 Allow once');
    hermes.press('enter');
    const screen = await hermes.waitForText('approval: once');
    expect(screen).toMatch(/✓ terminal make clean · 250ms/);
    expect(screen).toContain('allowed once: terminal make clean');
  });

  it('denies with Esc, and with Ctrl+C without exiting', async () => {
    const hermes = await hermesWithFakeBackend();
    await submit(hermes, 'approve rm a');
    await hermes.waitForText(CARD);
    hermes.press('down');
    hermes.press('up');
    hermes.press('escape');
    await hermes.waitForText('approval: deny');
    await hermes.waitForText('● ready');

    await submit(hermes, 'approve rm b');
    await hermes.waitForText(CARD);
    hermes.type('1');
    hermes.press('ctrl-c');
    await hermes.waitForText('denied: terminal rm b');
    await hermes.waitForText('● ready');
    expect(hermes.screenText()).not.toContain('Press Ctrl+C again to exit');
    await submit(hermes, 'still here');
    await hermes.waitForText('echo: still here');
  });

  it('answers two pending approvals one card at a time, in order', async () => {
    const hermes = await hermesWithFakeBackend();
    await submit(hermes, 'approve-two');
    const first = await hermes.waitForText('1 more waiting');
    expect(first).toContain('rm -rf first');
    expect(first).not.toContain('rm -rf second');
    hermes.type('1');
    hermes.press('enter');
    const second = await hermes.waitForText(/rm -rf second\s/);
    expect(second).not.toContain('more waiting');
    hermes.press('enter');
    await hermes.waitForText('approvals: once, deny');
  });

  it('lists every finding at 60×20, marks quotes that are not quotes, and shows the command in a view Esc only leaves', async () => {
    const hermes = await hermesWithFakeBackend({ cols: 60, rows: 20 });
    await submit(hermes, 'approve-lookalike');
    const card = await hermes.waitForText(CARD);
    expect(card).toContain('⛔ delete.recursive · ~/.ssh — deletes ~/.ssh and');
    expect(card).toContain('⚠ shell.lookalike · command line — uses ⟨U+FF07⟩');
    expect(card).toContain('echo ⟨U+FF07⟩; rm -rf ~/.ssh; echo ⟨U+FF07⟩');
    // The markers are drawn apart from the text around them (inverse video).
    expect(hermes.rawOutput()).toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*⟨U\+FF07⟩/);

    hermes.type('v');
    const view = await hermes.waitForText('line 1 of 1');
    expect(view).toContain('⛔ delete.recursive · ~/.ssh');
    expect(view).not.toContain('4 Deny');
    hermes.press('escape');
    const back = await hermes.waitForText('❯ 4 Deny');
    expect(back).not.toContain('approval: deny');
    hermes.press('escape');
    await hermes.waitForText('approval: deny');
  });

  it('returns a typed answer from the clarify card', async () => {
    const hermes = await hermesWithFakeBackend();
    await submit(hermes, 'clarify');
    const card = await hermes.waitForText('? Which colour?');
    expect(card).toMatch(onCard('❯ 1 red', '2 blue', '3 Type an answer…'));
    hermes.type('teal');
    await hermes.waitForText('› teal');
    hermes.press('enter');
    await hermes.waitForText('clarify: "teal"');
    expect(hermes.screenText()).toContain('Which colour? → teal');
  });

  it('sends a listed clarify answer picked with the arrows', async () => {
    const hermes = await hermesWithFakeBackend();
    await submit(hermes, 'clarify');
    await hermes.waitForText('? Which colour?');
    hermes.press('down');
    await hermes.waitForText('❯ 2 blue');
    hermes.press('enter');
    await hermes.waitForText('clarify: "blue"');
  });

  it('keeps the draft typed before the card appeared', async () => {
    const hermes = await hermesWithFakeBackend();
    await submit(hermes, 'approve-slow');
    await hermes.waitForText('read_file warming up');
    hermes.type('my next prompt');
    await hermes.waitForText('❯ my next prompt');
    const card = await hermes.waitForText(CARD);
    expect(card).toContain('❯ my next prompt');
    hermes.press('enter');
    await hermes.waitForText('approval: deny');
    await hermes.waitForText('● ready');
    hermes.press('enter');
    await hermes.waitForText('echo: my next prompt');
  });

  it('folds a long command to fit a small terminal without clearing the screen', async () => {
    const hermes = await hermesWithFakeBackend({ cols: 80, rows: 24 });
    await submit(hermes, 'approve-long');
    const card = await hermes.waitForText(/\+\d+ more lines/);
    expect(card).toContain(CARD);
    expect(card).toContain('echo step-1 ');
    expect(card).toContain('❯ 4 Deny');
    hermes.press('enter');
    await hermes.waitForText('approval: deny');
    // Ink clears the whole terminal (scrollback included) when its live zone reaches the screen's height.
    expect(hermes.rawOutput()).not.toContain('\x1b[3J');
  });
});
