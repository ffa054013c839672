/**
 * The known-good fast path through the real backend: a start whose plugin entries are all unchanged
 * since a load that completed imports them in parallel without markers; anything else is imported
 * marked (each plugin named on disk while its code runs). Which path a start took is what a plugin's
 * top-level code sees in $HERMES_HOME/plugins/.loading.json: its own name when marked, nothing when fast.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findStartupError } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const NAMES = ['p0', 'p1', 'p2', 'p3'];

/**
 * A plugin whose command `/<name>` answers what its top-level code saw in the loading mark, and `/order`
 * (p0's) the order register() ran in. `extra` is top-level code run first (after the mark is read).
 */
function pluginSource(home: string, name: string, extra = ''): string {
  return `import fs from 'node:fs';
let seen = 'nothing';
try { seen = JSON.parse(fs.readFileSync(${JSON.stringify(path.join(home, 'plugins', '.loading.json'))}, 'utf8').trim() || 'null')?.plugin ?? 'nothing'; } catch {}
${extra}
export function register(ctx) {
  (globalThis.__registered ??= []).push(${JSON.stringify(name)});
  ctx.registerCommand(${JSON.stringify(name)}, () => 'saw ' + seen);
  ${name === 'p0' ? `ctx.registerCommand('order', () => globalThis.__registered.join(','));` : ''}
}
`;
}

function homeWith(extra: Record<string, string> = {}, config = 'plugins:\n  register_timeout: 0.5\n'): string {
  const home = tempDir('hermes-fastpath-');
  for (const name of NAMES) writeEntry(home, name, extra[name]);
  fs.writeFileSync(path.join(home, 'config.yaml'), config);
  return home;
}

function writeEntry(home: string, name: string, extra?: string): void {
  fs.mkdirSync(path.join(home, 'plugins', name), { recursive: true });
  fs.writeFileSync(path.join(home, 'plugins', name, 'plugin.yaml'), `name: ${name}\nversion: "1.0"\n`);
  fs.writeFileSync(path.join(home, 'plugins', name, 'index.js'), pluginSource(home, name, extra));
}

/** Starts hermes-rpc on `home`; what each plugin's top-level code saw, and register()'s order. */
async function started(home: string) {
  const backend = new BackendProcess({ home });
  cleanups.push(() => backend.stop());
  const { plugins } = await backend.request('plugins.list', {});
  const { session_id: sid } = await backend.request('session.create', {});
  const run = async (command: string) => ((await backend.request('slash.exec', { session_id: sid, command })) as { output: string }).output;
  const enabled = plugins.filter((p) => p.enabled).map((p) => p.name);
  const seen = Object.fromEntries(await Promise.all(enabled.map(async (name) => [name, await run(`/${name}`)] as const)));
  const order = enabled.includes('p0') ? await run('/order') : null;
  await backend.stop();
  return { plugins, seen, order };
}

const marked = (names: string[]) => Object.fromEntries(names.map((n) => [n, `saw ${n}`]));
const fast = (names: string[]) => Object.fromEntries(names.map((n) => [n, 'saw nothing']));

describe('plugins: the known-good fast path', () => {
  it('a second start of an unchanged set imports without markers and registers in discovery order; a changed file or a corrupt record makes the next load marked', async () => {
    const home = homeWith();
    const first = await started(home);
    expect(first.seen).toEqual(marked(NAMES));
    expect(first.order).toBe(NAMES.join(','));
    const second = await started(home);
    expect(second.seen).toEqual(fast(NAMES));
    expect(second.order).toBe(NAMES.join(','));
    expect(second.plugins.map((p) => [p.name, p.enabled, p.error])).toEqual(NAMES.map((n) => [n, true, null]));

    // One entry changed (its size): the whole load is marked, then fast again.
    writeEntry(home, 'p2', '// edited');
    expect((await started(home)).seen).toEqual(marked(NAMES));
    expect((await started(home)).seen).toEqual(fast(NAMES));

    // A corrupt record is no record.
    fs.writeFileSync(path.join(home, 'plugins', '.known-good.json'), '{"version":1,');
    expect((await started(home)).seen).toEqual(marked(NAMES));
  });

  it('a plugin that throws on the fast path is named; the next load is marked', async () => {
    const flag = path.join(tempDir('hermes-fastpath-flag-'), 'throw');
    const home = homeWith({ p1: `if (fs.existsSync(${JSON.stringify(flag)})) throw new Error('p1 exploded at import');` });
    expect((await started(home)).seen).toEqual(marked(NAMES));
    fs.writeFileSync(flag, '');
    const fastLoad = await started(home);
    expect(fastLoad.plugins.find((p) => p.name === 'p1')).toMatchObject({ enabled: false, error: 'Error: p1 exploded at import' });
    const others = NAMES.filter((n) => n !== 'p1');
    expect(fastLoad.seen).toEqual(fast(others));
    expect(fastLoad.order).toBe(others.join(','));
    expect((await started(home)).seen).toEqual(marked(others));
  });

  it('a plugin that starts blocking on a known-good set is contained (hermes stopped); the next start names it exactly as on the marked path', async () => {
    const flag = path.join(tempDir('hermes-fastpath-flag-'), 'spin');
    const home = homeWith({ p2: `if (fs.existsSync(${JSON.stringify(flag)})) for (;;) {}` });
    expect((await started(home)).seen).toEqual(marked(NAMES));
    fs.writeFileSync(flag, '');

    const fastLoad = new BackendProcess({ home });
    cleanups.push(() => fastLoad.stop());
    expect(await fastLoad.exited).not.toBe(0);
    expect(findStartupError(fastLoad.stderr.split('\n'))).toMatch(/^plugins: the import of one of 4 plugins, imported together .* blocked hermes for more than 0.5 s \(plugins.register_timeout\).*next start runs their code one after another and names the plugin that blocks/);

    const markedLoad = new BackendProcess({ home });
    cleanups.push(() => markedLoad.stop());
    expect(await markedLoad.exited).not.toBe(0);
    expect(findStartupError(markedLoad.stderr.split('\n'))).toMatch(/^plugin p2: its import or register\(\) blocked hermes for more than 0.5 s \(plugins.register_timeout\).*hermes plugins disable p2/);

    const skipping = await started(home);
    expect(skipping.plugins.find((p) => p.name === 'p2')).toMatchObject({ enabled: false, error: expect.stringMatching(/^skipped: .*blocked hermes/) });
    expect(skipping.order).toBe('p0,p1,p3');
  });
});
