/**
 * Secrets never leave, end to end: an exported provider key and secrets in `$HERMES_HOME/.env`, the
 * real backend, a scripted model that makes the tools print the environment and the .env file. The
 * secret values must not reach the tool's environment, the wire, state.db, backend.log or the next
 * model request; reading the .env asks; a provider 401 echoing the Authorization header leaks nowhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { ApprovalChoice, EventOf, ServerRequestMap } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

type ApprovalParams = ServerRequestMap['approval']['params'];

const PROVIDER_KEY = 'sk-hermes-test-FAKEKEY-7f3a9c1e5b2d8f4a6c0e';
const DOTENV_SECRET = 'dotenv-only-secret-q8w7e6r5t4';
const PASSED_VALUE = 'passed-through-value-z9x8c7v6';
const CONFIG_SECRET = 'config-yaml-secret-m3n4b5v6';
/** Exported (not in .env), named like no secret, but passed through: still a secret in what leaves. */
const EXPORTED_PASSED = 'exported-passed-value-k2j3h4';
const SECRETS = [PROVIDER_KEY, DOTENV_SECRET, PASSED_VALUE, CONFIG_SECRET, EXPORTED_PASSED];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const tmpDir = (prefix: string) => tempDir(prefix);

/** `turns` may depend on where the home and working directory are. */
async function start(
  turns: Turn[] | ((dirs: { home: string; cwd: string }) => Turn[]),
  answer: (params: ApprovalParams) => ApprovalChoice = () => 'deny',
  prepare: (home: string) => void = () => {},
) {
  const home = tmpDir('hermes-secrets-home-');
  const cwd = tmpDir('hermes-secrets-cwd-');
  const server: ModelServer = await startModelServer({ turns: typeof turns === 'function' ? turns({ home, cwd }) : turns });
  cleanups.push(() => server.close());
  fs.writeFileSync(path.join(home, '.env'), `HERMES_TEST_DOTENV_SECRET=${DOTENV_SECRET}\nHERMES_TEST_PASSED=${PASSED_VALUE}\n`);
  prepare(home);
  fs.writeFileSync(path.join(home, 'config.yaml'), `terminal:\n  env_passthrough: [HERMES_TEST_PASSED, HERMES_TEST_EXPORTED]\nmodel:\n  api_key: ${CONFIG_SECRET}\n`);
  const backend = new BackendProcess({
    home,
    cwd,
    env: { OPENAI_API_KEY: PROVIDER_KEY, HERMES_TEST_EXPORTED: EXPORTED_PASSED },
    args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
  });
  cleanups.push(() => backend.stop());
  const asked: ApprovalParams[] = [];
  backend.connection.onRequest('approval', (params: ApprovalParams) => {
    asked.push(params);
    return { choice: answer(params) };
  });
  const session = await backend.request('session.create', { cwd });
  return { server, backend, home, cwd, asked, sessionId: session.session_id };
}

async function turn(backend: BackendProcess, sessionId: string, text: string): Promise<EventOf<'message.complete'>> {
  const completes = () => backend.eventsOf(sessionId).filter((e) => e.type === 'message.complete');
  const before = completes().length;
  await backend.request('prompt.submit', { session_id: sessionId, text });
  await backend.waitForEvent(() => completes().length > before, 30_000);
  return completes().at(-1) as EventOf<'message.complete'>;
}

function toolResults(backend: BackendProcess, sessionId: string): EventOf<'tool.complete'>['payload'][] {
  return backend.eventsOf(sessionId).filter((e) => e.type === 'tool.complete').map((e) => (e as EventOf<'tool.complete'>).payload);
}

/** Every byte of the store (the database and its write-ahead log), as text. */
function storeBytes(home: string): string {
  return fs
    .readdirSync(home)
    .filter((name) => name.startsWith('state.db'))
    .map((name) => fs.readFileSync(path.join(home, name)).toString('latin1'))
    .join('\n');
}

async function waitForFile(file: string): Promise<string> {
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (text.includes('END_OF_ENV')) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function expectNoSecret(where: string, text: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), `${where} contains ${secret}`).toBe(false);
}

describe('secrets never leave', () => {
  it('tools get no provider key or .env variable, and what they print is redacted everywhere', async () => {
    const dumps = tmpDir('hermes-secrets-dumps-');
    const fg = path.join(dumps, 'foreground.txt');
    const bg = path.join(dumps, 'background.txt');
    const turns: Turn[] = [
      {
        tool_calls: [
          { name: 'terminal', arguments: { command: 'env' } },
          { name: 'terminal', arguments: { command: 'printenv OPENAI_API_KEY; echo "exit=$?"' } },
          { name: 'terminal', arguments: { command: `{ env; echo END_OF_ENV; } > ${fg}` } },
          { name: 'terminal', arguments: { command: `{ env; echo END_OF_ENV; } > ${bg}`, background: true } },
          { name: 'terminal', arguments: { command: 'cat $HERMES_HOME/.env' } },
          { name: 'terminal', arguments: { command: 'echo "the key is $(head -n 1 $HERMES_HOME/.env)"' } },
          // Approved reads whose output is encoded: the redactor knows the encodings of known values.
          { name: 'terminal', arguments: { command: 'base64 -w0 /proc/$PPID/environ; echo; base64 -w0 $HERMES_HOME/.env' } },
          { name: 'terminal', arguments: { command: 'xxd -p -c 4096 $HERMES_HOME/.env' } },
          { name: 'terminal', arguments: { command: 'rev $HERMES_HOME/.env' } },
        ],
      },
      { text: 'done' },
      { text: 'second turn' },
    ];
    // The human approves reading the .env: its content must still come back redacted.
    const { backend, server, home, asked, sessionId } = await start(turns, () => 'once');
    const done = await turn(backend, sessionId, 'show me the environment');
    expect(done.payload!.status).toBe('complete');

    // The tool's own environment: no provider key, no .env variable, but the passthrough one.
    const foreground = await waitForFile(fg);
    const background = await waitForFile(bg);
    for (const env of [foreground, background]) {
      expect(env).toMatch(/^PATH=/m);
      expect(env).not.toMatch(/^OPENAI_API_KEY=/m);
      expect(env).not.toMatch(/^HERMES_TEST_DOTENV_SECRET=/m);
      expect(env).toContain(`HERMES_TEST_PASSED=${PASSED_VALUE}`);
      expect(env).not.toContain(PROVIDER_KEY);
      expect(env).not.toContain(DOTENV_SECRET);
    }

    const results = toolResults(backend, sessionId);
    expect(results).toHaveLength(9);
    const [encoded = '', hex = '', reversed = ''] = results.slice(6).map((r) => r?.result ?? '');
    const decoded = [
      ...encoded.split('\n').map((line) => Buffer.from(line, 'base64').toString('latin1')),
      Buffer.from(hex.split('\n')[0] ?? '', 'hex').toString('latin1'),
      [...reversed].reverse().join(''),
    ].join('\n');
    expect(encoded).toContain('[REDACTED]');
    for (const secret of SECRETS) expect(decoded, secret).not.toContain(secret.slice(2, -2));
    expect(results[1]!.result).toContain('exit=1');
    // Reading the .env through the terminal asked first, then showed the names without the values.
    expect(asked.map((a) => a.findings.map((f) => `${f.rule}@${f.target}`))).toContainEqual(['read.secrets@$HERMES_HOME/.env']);
    expect(results[4]!.result).toContain('HERMES_TEST_DOTENV_SECRET=[REDACTED]');
    expect(results[5]!.result).toContain('the key is HERMES_TEST_DOTENV_SECRET=[REDACTED]');
    // The passthrough value is in the tool's environment, but still a secret in what leaves.
    expect(results[0]!.result).toContain('HERMES_TEST_PASSED=[REDACTED]');
    expect(results[0]!.result).toContain('HERMES_TEST_EXPORTED=[REDACTED]');

    // The next model request carries the redacted results, never the values.
    await turn(backend, sessionId, 'and again');
    const requests = server.requests.map((r) => JSON.stringify(r.body));
    expect(requests.some((r) => r.includes('HERMES_TEST_DOTENV_SECRET=[REDACTED]'))).toBe(true);
    for (const body of requests) expectNoSecret('a model request', body);

    // The shell escape (`!cmd`) gets the same environment and the same redaction.
    const shell = await backend.request('shell.exec', { session_id: sessionId, command: `printenv OPENAI_API_KEY; echo ${DOTENV_SECRET}` });
    expect(shell.stdout).toBe('[REDACTED]');

    await backend.stop();
    expectNoSecret('the wire', backend.rawLines.join('\n'));
    expectNoSecret('state.db', storeBytes(home));
    const log = fs.readFileSync(path.join(home, 'logs', 'backend.log'), 'utf8');
    expect(log).toMatch(/backend ready/);
    expectNoSecret('backend.log', log);
  });

  it('read_file of $HERMES_HOME/.env asks, also through a link or another spelling; denied, nothing is read', async () => {
    const readFile = (p: string): Turn => ({ tool_calls: [{ name: 'read_file', arguments: { path: p } }] });
    const { backend, home, cwd, asked, sessionId } = await start(({ home, cwd }) => [
      readFile('notes.txt'),
      readFile(path.join(cwd, '..', path.basename(home), 'sub', '..', '.env')),
      readFile(path.join(home, '.ENV')),
      readFile('linked.env'),
      { tool_calls: [{ name: 'write_file', arguments: { path: 'linked.env', content: 'X=1\n' } }] },
      { text: 'done' },
    ]);
    fs.writeFileSync(path.join(cwd, 'notes.txt'), 'plain notes\n');
    fs.symlinkSync(path.join(home, '.env'), path.join(cwd, 'linked.env'));
    const done = await turn(backend, sessionId, 'read the secrets');
    expect(done.payload!.text).toBe('done');
    // Only the .env reads and the write through the link asked; the plain file did not.
    expect(asked.map((a) => a.tool_name)).toEqual(['read_file', 'read_file', 'read_file', 'write_file']);
    expect(asked[0]!.findings[0]).toMatchObject({ rule: 'read.secrets', target: '$HERMES_HOME/.env' });
    expect(asked[0]!.command).toBe(`read ${path.join(home, '.env')}`);
    expect(asked[2]!.command).toBe(`read ${path.join(cwd, 'linked.env')}`);
    const results = toolResults(backend, sessionId);
    expect(results[0]!.result).toContain('plain notes');
    for (const r of results.slice(1)) {
      expect(r?.blocked).toBe(true);
      expect(r?.result).toMatch(/^BLOCKED/);
    }
    expect(fs.readFileSync(path.join(home, '.env'), 'utf8')).toContain(DOTENV_SECRET);
    await backend.stop();
    expectNoSecret('the wire', backend.rawLines.join('\n'));
  });

  it('a key the model streams across frames, or the user pastes, reaches neither the wire nor state.db', async () => {
    // Split inside each secret, with a pause so each piece is its own frame.
    const turns: Turn[] = [
      { chunks: [`the key is ${PROVIDER_KEY.slice(0, 12)}`, `${PROVIDER_KEY.slice(12)} and the other `, DOTENV_SECRET.slice(0, 6), `${DOTENV_SECRET.slice(6)} end`], chunk_delay_ms: 80 },
      { text: 'noted' },
    ];
    const { backend, home, sessionId } = await start(turns);
    const done = await turn(backend, sessionId, 'say the key');
    expect(done.payload!.status).toBe('complete');
    const deltas = backend.eventsOf(sessionId).filter((e) => e.type === 'message.delta').map((e) => (e as EventOf<'message.delta'>).payload!.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('the key is [REDACTED] and the other [REDACTED] end');
    await turn(backend, sessionId, `my key is ${PROVIDER_KEY}, keep it`);
    await backend.stop();
    expectNoSecret('the wire', backend.rawLines.join('\n'));
    expectNoSecret('state.db', storeBytes(home));
    for (const secret of SECRETS) expect(storeBytes(home)).not.toContain(secret.slice(0, 16));
  });

  it("reading the backend's environment asks, by any program (encoded output would defeat redaction)", async () => {
    const run = (command: string) => ({ name: 'terminal', arguments: { command } });
    const turns: Turn[] = [
      {
        tool_calls: [
          run(`base64 -w0 /proc/$PPID/environ # ${PROVIDER_KEY}`),
          run("tr '\\0' '\\n' < /proc/$PPID/environ | rev"),
          run(`node -e "process.stdout.write(Buffer.from(require('fs').readFileSync('/proc/' + process.ppid + '/environ')).toString('hex'))"`),
          run('base64 -w0 "$HERMES_HOME/.env"'),
          run(`node -e "process.stdout.write(require('fs').readFileSync(process.env.HERMES_HOME + '/.env', 'hex'))"`),
          // read_file runs inside the backend: its `self` is the backend.
          { name: 'read_file', arguments: { path: '/proc/self/environ' } },
          // A match would tell the model the key's first characters, whatever the redaction of the line.
          { name: 'search_files', arguments: { pattern: 'OPENAI_API_KEY=sk-', path: '/proc/self/environ' } },
          run('echo harmless'),
        ],
      },
      { text: 'done' },
    ];
    const { backend, asked, sessionId } = await start(turns);
    // The title is cut from this prompt at 60 characters, through the secret.
    const done = await turn(backend, sessionId, `read the environment, my other password: ${DOTENV_SECRET}`);
    expect(done.payload!.status).toBe('complete');
    // Read-only tools may run side by side: results and questions are compared in call order.
    expect(asked.map((a) => `${a.command.slice(0, 12)} ${a.findings.map((f) => `${f.rule}@${f.target}`).join()}`).sort()).toEqual(
      [
        'base64 -w0 / read.secrets@process environment',
        "tr '\\0' '\\n' read.secrets@process environment",
        'node -e "pro read.secrets@process environment',
        'base64 -w0 " read.secrets@$HERMES_HOME/.env',
        'node -e "pro read.secrets@$HERMES_HOME/.env',
        'read /proc/s read.secrets@process environment',
      ].sort(),
    );
    const callNumber = (r: ReturnType<typeof toolResults>[number]) => Number(/\d+$/.exec(r?.tool_id ?? '')?.[0]);
    const results = toolResults(backend, sessionId).sort((a, b) => callNumber(a) - callNumber(b));
    for (const r of results.slice(0, 6)) expect(r?.result).toMatch(/^BLOCKED/);
    expect(results[6]!.result).toMatch(/^No matches .*\n\[process environments .* were not searched/);
    expect(results[7]!.result).toContain('harmless');
    // A secret put in config.yaml is one too: config.get does not hand it out.
    const got = await backend.request('config.get', { key: 'model.api_key' });
    expect(got.value).toBe('[REDACTED]');
    const listed = await backend.request('session.list', {});
    expect(listed.sessions.map((x) => x.title)).toEqual(['read the environment, my other password: [REDACTED]']);
    const home = backend.home;
    await backend.stop();
    expectNoSecret('the wire', backend.rawLines.join('\n'));
    expectNoSecret('state.db', storeBytes(home));
  });

  it('what plugin code prints (to stdout, diverted, or stderr) reaches stderr redacted: the TUI shows its tail', async () => {
    const plugin = [
      'export function register(ctx) {',
      '  console.log(`stdout: ${process.env.OPENAI_API_KEY}`);',
      '  process.stderr.write(`stderr: ${process.env.OPENAI_API_KEY}\\n`);',
      "  ctx.registerCommand('noop', () => 'ok', 'does nothing');",
      '}',
    ].join('\n');
    const { backend } = await start([{ text: 'unused' }], () => 'deny', (home) => {
      fs.mkdirSync(path.join(home, 'plugins', 'talker'), { recursive: true });
      fs.writeFileSync(path.join(home, 'plugins', 'talker', 'plugin.yaml'), 'name: talker\nversion: "1.0"\n');
      fs.writeFileSync(path.join(home, 'plugins', 'talker', 'index.js'), plugin);
    });
    await backend.stop();
    expect(backend.stderr).toContain('stdout: [REDACTED]');
    expect(backend.stderr).toContain('stderr: [REDACTED]');
    expectNoSecret('stderr', backend.stderr);
  });

  it('a provider 401 whose body echoes the Authorization header reaches neither the log nor the error event', async () => {
    const turns: Turn[] = [{ error: { status: 401, message: `Incorrect API key. Request had Authorization: Bearer ${PROVIDER_KEY}` } }];
    const { backend, home, sessionId } = await start(turns);
    const done = await turn(backend, sessionId, 'hello');
    expect(done.payload!.status).toBe('error');
    expect(done.payload!.error).toMatch(/HTTP 401/);
    expect(done.payload!.error).toContain('Authorization: [REDACTED]');
    await backend.stop();
    expectNoSecret('the wire', backend.rawLines.join('\n'));
    const log = fs.readFileSync(path.join(home, 'logs', 'backend.log'), 'utf8');
    expect(log).toMatch(/401/);
    expectNoSecret('backend.log', log);
  });
});
