/**
 * A user's plugin, end to end: `/my` + Tab completes to its `/mycmd` in a real pseudo-terminal and
 * Enter shows its output; `hermes plugins list|disable|enable` edit config.yaml; `hermes <name>` runs
 * its command-line command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HERMES_BIN } from '../testing/ptyHarness.ts';
import { CLEAN_ENV, hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

function homeWithPlugin(): string {
  const home = tempDir('hermes-plugin-home-');
  const dir = path.join(home, 'plugins', 'demo');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.yaml'), 'name: demo\nversion: "2.1"\n');
  fs.writeFileSync(
    path.join(dir, 'index.js'),
    `export function register(ctx) {
  ctx.registerCommand('mycmd', (args) => 'mycmd says hello ' + args, 'Says hello from the demo plugin');
  ctx.registerCliCommand('demo-report', { help: 'Prints a report', handler: (argv) => 'report for ' + argv.join(' ') });
}\n`,
  );
  return home;
}

const hermes = (home: string, args: string[]) =>
  execa(process.execPath, [HERMES_BIN, ...args], { env: { ...CLEAN_ENV, HERMES_HOME: home }, reject: false, stdin: 'ignore' });

describe('a plugin from the user', () => {
  it('/my + Tab completes to the plugin command, and Enter shows its output', async () => {
    const home = homeWithPlugin();
    const { hermes: tui } = await hermesWithModel(running, { turns: [{ text: 'unused' }] }, { home });
    tui.type('/my');
    await tui.waitForText('Says hello from the demo plugin');
    tui.press('tab');
    await tui.waitForText(/❯ \/mycmd\s*$/m);
    tui.type('world');
    tui.press('enter');
    await tui.waitForText('mycmd says hello world');
  });

  it('hermes plugins list, disable and enable edit config.yaml; hermes <name> runs its CLI command', async () => {
    const home = homeWithPlugin();
    // `plugins list` imports nothing: before any start has loaded the plugin, what it registers is unknown.
    const fresh = await hermes(home, ['plugins', 'list']);
    expect(fresh.exitCode).toBe(0);
    expect(fresh.stdout).toMatch(/^demo\t2\.1\tuser\tenabled\tnot loaded yet$/m);

    // The plugin's command reads its own flags, ones hermes does not know included.
    const report = await hermes(home, ['demo-report', 'weekly', '--format', 'short', '-v']);
    expect(report.exitCode).toBe(0);
    expect(report.stdout).toBe('report for weekly --format short -v');
    // That start loaded it: the listing now carries its counts.
    const list = await hermes(home, ['plugins', 'list']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/^demo\t2\.1\tuser\tenabled\ttools 0, hooks 0, middleware 0, commands 1$/m);

    expect((await hermes(home, ['plugins', 'disable', 'demo'])).exitCode).toBe(0);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toMatch(/disabled:\n\s+- demo/);
    expect((await hermes(home, ['plugins', 'list'])).stdout).toMatch(/^demo\t.*\tdisabled\t/m);
    expect((await hermes(home, ['plugins', 'enable', 'demo'])).exitCode).toBe(0);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).not.toContain('- demo');

    const unknown = await hermes(home, ['plugins', 'disable', 'nope']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('no plugin is named "nope"');
    const notACommand = await hermes(home, ['frobnicate']);
    expect(notACommand.exitCode).toBe(2);
    expect(notACommand.stderr).toContain('unknown command "frobnicate"');
  });

  it('hermes plugins list|disable|enable never import plugins: they work beside one that hangs and one that kills its process', async () => {
    const home = homeWithPlugin();
    const marker = path.join(home, 'imported-marker');
    const write = (name: string, entry: string) => {
      fs.mkdirSync(path.join(home, 'plugins', name), { recursive: true });
      fs.writeFileSync(path.join(home, 'plugins', name, 'plugin.yaml'), `name: ${name}\nversion: "0.1"\n`);
      fs.writeFileSync(path.join(home, 'plugins', name, 'index.js'), entry);
    };
    write('hangs', `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'hangs');\nexport async function register() { await new Promise(() => {}); }\n`);
    write('killer', `import fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(marker)}, 'killer');\nprocess.kill(process.pid, 'SIGKILL');\nexport function register() {}\n`);

    const list = await hermes(home, ['plugins', 'list']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/^hangs\t0\.1\tuser\tenabled\t/m);
    expect(list.stdout).toMatch(/^killer\t0\.1\tuser\tenabled\t/m);
    expect((await hermes(home, ['plugins', 'disable', 'killer'])).exitCode).toBe(0);
    expect((await hermes(home, ['plugins', 'disable', 'hangs'])).exitCode).toBe(0);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toMatch(/disabled:\n\s+- killer\n\s+- hangs/);
    expect((await hermes(home, ['plugins', 'list'])).stdout).toMatch(/^killer\t0\.1\tuser\tdisabled\t/m);
    expect((await hermes(home, ['plugins', 'enable', 'hangs'])).exitCode).toBe(0);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).not.toContain('- hangs');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('hermes plugins list never writes a plugin\'s escape sequences (its manifest is third-party text) to the terminal', async () => {
    const home = homeWithPlugin();
    fs.mkdirSync(path.join(home, 'plugins', 'titler'), { recursive: true });
    fs.writeFileSync(path.join(home, 'plugins', 'titler', 'plugin.yaml'), 'name: titler\nversion: "1\\e]0;pwned\\a\\e[2J"\n');
    fs.writeFileSync(path.join(home, 'plugins', 'titler', 'index.js'), 'export function register() {}\n');
    const list = await hermes(home, ['plugins', 'list']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^titler\t1\tuser\t/m);
    // eslint-disable-next-line no-control-regex
    expect(list.stdout + list.stderr).not.toMatch(/[\x07\x1b]/);
  });

  it('a plugin whose register() never resolves: hermes starts, says which plugin it disabled, and answers', async () => {
    const home = homeWithPlugin();
    fs.mkdirSync(path.join(home, 'plugins', 'hangs'), { recursive: true });
    fs.writeFileSync(path.join(home, 'plugins', 'hangs', 'plugin.yaml'), 'name: hangs\n');
    fs.writeFileSync(path.join(home, 'plugins', 'hangs', 'index.js'), 'export async function register() { await new Promise(() => {}); }\n');
    fs.writeFileSync(path.join(home, 'config.yaml'), 'plugins:\n  register_timeout: 0.5\n');
    const { hermes: tui } = await hermesWithModel(running, { turns: [{ text: 'still answering' }] }, { home });
    await tui.waitForText(/plugin hangs is disabled/);
    tui.type('hello');
    tui.press('enter');
    await tui.waitForText('still answering');
  });
  it('a hook that throws: the user sees one warning naming the plugin and hook (secrets redacted), and the turns still answer', async () => {
    const home = homeWithPlugin();
    const secret = 'sk-proj-' + 'Zq9'.repeat(12);
    fs.mkdirSync(path.join(home, 'plugins', 'thrower'), { recursive: true });
    fs.writeFileSync(path.join(home, 'plugins', 'thrower', 'plugin.yaml'), 'name: thrower\n');
    fs.writeFileSync(
      path.join(home, 'plugins', 'thrower', 'index.js'),
      `export function register(ctx) { ctx.registerHook('pre_llm_call', () => { throw new Error('boom with ${secret}'); }); }\n`,
    );
    const { hermes: tui } = await hermesWithModel(running, { loop: true, turns: [{ text: 'answered anyway' }] }, { home });
    const answers = () => tui.bufferText().split('answered anyway').length - 1;
    for (const [index, prompt] of ['first', 'second'].entries()) {
      tui.type(prompt);
      await tui.waitForText(`❯ ${prompt}`);
      tui.press('enter');
      await vi.waitFor(() => expect(answers()).toBe(index + 1), { timeout: 20_000, interval: 50 });
    }
    const shown = tui.bufferText().replace(/\s+/g, ' ');
    expect(shown).toContain('plugin thrower: pre_llm_call hook callback raised Error: boom with');
    expect(shown.split('plugin thrower: pre_llm_call hook').length - 1).toBe(1);
    expect(tui.rawOutput()).not.toContain(secret);
  });
});
