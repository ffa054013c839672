/**
 * hermes as a user installs it: `npm run pack`, then `npm i -g --prefix <tmp> ./hermes-agent-<v>.tgz`
 * into an empty prefix outside the repository, then the installed `hermes` and `hermes-rpc` with no
 * repository in reach: --version, chat -q against the scripted model server, --demo in a real
 * pseudo-terminal, a JavaScript and a TypeScript plugin, the approval judge's grammar. One install
 * (better-sqlite3 compiles from source: about a minute) serves every case.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../model-server/index.ts';
import { tempDir } from '../testing/tempDirs.ts';
import { spawnHermes, type HermesPty } from '../../packages/tui/src/testing/ptyHarness.ts';
import { CLEAN_ENV } from '../../packages/tui/src/testing/realBackend.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
const INSTALL_TIMEOUT_MS = 15 * 60_000;

let prefix: string;
let installed: string;
/** A folder outside the repository to run the installed commands from. */
let elsewhere: string;
const servers: ModelServer[] = [];
const terminals: HermesPty[] = [];

afterEach(async () => {
  await Promise.all([...servers.splice(0).map((s) => s.close()), ...terminals.splice(0).map((t) => t.kill())]);
});

/** The environment of a user who installed hermes: its bin on PATH, no NODE_PATH, no key, nothing of the repository. */
function userEnv(home: string): Record<string, string | undefined> {
  return { ...CLEAN_ENV, NODE_PATH: undefined, NODE_OPTIONS: undefined, HERMES_HOME: home, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}` };
}

/** Runs an installed command (`hermes`, `hermes-rpc`) by name, as a shell would. */
function run(command: string, args: string[], home = tempDir('hermes-installed-home-')) {
  return execa(command, args, { cwd: elsewhere, env: userEnv(home), extendEnv: true, reject: false, stdin: 'ignore', timeout: 60_000 });
}

beforeAll(async () => {
  const out = tempDir('hermes-pack-out-');
  const packed = await execa(process.execPath, [path.join(REPO_ROOT, 'scripts', 'packaging', 'pack.mjs'), '--out', out], { cwd: REPO_ROOT });
  const tarball = path.join(out, `hermes-agent-${version}.tgz`);
  expect(fs.existsSync(tarball), packed.stdout).toBe(true);

  prefix = tempDir('hermes-prefix-');
  elsewhere = tempDir('hermes-elsewhere-');
  // npm's own temporary files go with the test's temp dirs.
  const npmTmp = tempDir('hermes-npm-tmp-');
  const env = { ...process.env, TMPDIR: npmTmp, NODE_PATH: undefined };
  const started = performance.now();
  await execa('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--allow-scripts=better-sqlite3,esbuild', tarball], {
    cwd: elsewhere,
    env,
    extendEnv: false,
    timeout: INSTALL_TIMEOUT_MS,
  });
  // A figure for the note, not a limit.
  process.stderr.write(`installed ${path.basename(tarball)} (${Math.round(fs.statSync(tarball).size / 1024)} kB) in ${Math.round((performance.now() - started) / 1000)} s\n`);
  installed = path.join(prefix, 'lib', 'node_modules', 'hermes-agent');
}, INSTALL_TIMEOUT_MS);

describe('hermes installed from its tarball, with no repository in reach', () => {
  it('lives outside the repository: no node_modules above it, and what only the repository has does not resolve from it', async () => {
    for (let dir = path.dirname(prefix); ; dir = path.dirname(dir)) {
      expect(fs.existsSync(path.join(dir, 'node_modules')), `${dir}/node_modules`).toBe(false);
      if (path.dirname(dir) === dir) break;
    }
    const probe = `import { createRequire } from 'node:module';
const require = createRequire(process.argv[1] + '/package.json');
const where = (name) => { try { return require.resolve(name); } catch { return null; } };
console.log(JSON.stringify({ sqlite: where('better-sqlite3'), tsx: where('tsx'), vitest: where('vitest'), core: where('@hermes/agent-core'), ink: where('ink') }));`;
    const result = await run(process.execPath, ['--input-type=module', '-e', probe, installed]);
    const found = JSON.parse(result.stdout) as Record<string, string | null>;
    expect(found.sqlite?.startsWith(installed)).toBe(true);
    expect(found.tsx?.startsWith(installed)).toBe(true);
    // Ink is in the bundle, not installed; the rest is the repository's alone.
    expect({ vitest: found.vitest, core: found.core, ink: found.ink }).toEqual({ vitest: null, core: null, ink: null });
  });

  it('hermes --version and hermes-rpc --version print the package and protocol versions', async () => {
    const hermes = await run('hermes', ['--version']);
    expect(hermes.stdout).toBe(`hermes ${version} (protocol 1)`);
    const backend = await run('hermes-rpc', ['--version']);
    expect(backend.stdout).toBe(`hermes-rpc ${version} (protocol 1)`);
  });

  it('hermes chat -q answers from the scripted model server, the session stored in SQLite', async () => {
    const server = await startModelServer({ turns: [{ text: 'Installed and answering.' }] });
    servers.push(server);
    const home = tempDir('hermes-installed-home-');
    const result = await run('hermes', ['chat', '-q', 'Are you installed?', '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'], home);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Installed and answering.');
    expect(result.exitCode).toBe(0);
    expect(fs.existsSync(path.join(home, 'state.db'))).toBe(true);
    const sessions = await run('hermes', ['sessions', 'list'], home);
    expect(sessions.stdout).toContain('Are you installed?');
  });

  it('hermes --demo draws its first frame in a real terminal, and the demo model (shipped in the package) answers', async () => {
    // Its own TMPDIR: the demo's scratch folder, left by a hermes killed at the end, goes with it.
    const env = { ...userEnv(tempDir('hermes-installed-home-')), TMPDIR: tempDir('hermes-installed-tmp-') };
    const hermes = spawnHermes({ bin: path.join(prefix, 'bin', 'hermes'), args: ['--demo'], cwd: elsewhere, env });
    terminals.push(hermes);
    await hermes.waitForText('Ask hermes anything', 30_000);
    hermes.type('hello');
    await hermes.waitForText('❯ hello');
    hermes.press('enter');
    await hermes.waitForText("I'm a scripted demo model", 30_000);
    await hermes.waitForText('That was a scripted demo', 30_000);
  });

  it('a JavaScript and a TypeScript plugin in $HERMES_HOME load and run their commands', async () => {
    const home = tempDir('hermes-installed-home-');
    const plugin = (name: string, file: string, source: string) => {
      fs.mkdirSync(path.join(home, 'plugins', name), { recursive: true });
      fs.writeFileSync(path.join(home, 'plugins', name, 'plugin.yaml'), `name: ${name}\nversion: "1.0"\n`);
      fs.writeFileSync(path.join(home, 'plugins', name, file), source);
    };
    plugin('jsdemo', 'index.js', `export function register(ctx) {\n  ctx.registerCliCommand('js-echo', { help: 'Echoes', handler: (argv) => 'js says ' + argv.join(' ') });\n}\n`);
    // Types only tsx can strip: the installed package's tsx compiles it.
    plugin(
      'tsdemo',
      'index.ts',
      `interface Ctx { registerCliCommand(name: string, spec: { help: string; handler: (argv: string[]) => string }): void }
enum Volume { Loud = 'LOUD' }
const shout = (words: readonly string[]): string => words.map((w) => w.toUpperCase()).join(' ');
export function register(ctx: Ctx): void {
  ctx.registerCliCommand('ts-shout', { help: 'Shouts', handler: (argv: string[]) => \`ts says \${shout(argv)} (\${Volume.Loud})\` });
}
`,
    );
    const js = await run('hermes', ['js-echo', 'a', 'b'], home);
    expect(js.stdout).toBe('js says a b');
    expect(js.exitCode).toBe(0);
    const ts = await run('hermes', ['ts-shout', 'hi', 'there'], home);
    expect(ts.stdout).toBe('ts says HI THERE (LOUD)');
    expect(ts.exitCode).toBe(0);
    const list = await run('hermes', ['plugins', 'list'], home);
    expect(list.stdout).toMatch(/^jsdemo\t1\.0\tuser\tenabled\t/m);
    expect(list.stdout).toMatch(/^tsdemo\t1\.0\tuser\tenabled\t/m);
  });

  it('the approval judge parses commands with the bash grammar the package carries', async () => {
    const result = await run('hermes', ['approvals', 'check', 'rm -rf /tmp/installed-test']);
    expect(result.stdout).toMatch(/^dangerous\n\s+dangerous\s+delete\.recursive/);
  });
});
