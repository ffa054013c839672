/** `hermes chat -q`: one headless turn through the real bundle and backend, no terminal. */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Script } from '../../../../scripts/model-server/index.ts';
import { HERMES_BIN } from '../testing/ptyHarness.ts';
import { backendPids, chatUntilTool, CLEAN_ENV } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function chat(script: Script, args: string[], cwd?: string, setup: { env?: Record<string, string>; dotenv?: string } = {}) {
  const server = await startModelServer(script);
  servers.push(server);
  const home = tempDir('hermes-chat-home-');
  if (setup.dotenv) fs.writeFileSync(path.join(home, '.env'), setup.dotenv);
  const result = await execa(
    process.execPath,
    [HERMES_BIN, 'chat', ...args, '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
    { env: { ...CLEAN_ENV, HERMES_HOME: home, ...setup.env }, extendEnv: true, reject: false, stdin: 'ignore', cwd, timeout: 60_000 },
  );
  return { result, server };
}

/** `hermes chat -q` whose model runs `sleep 30`; resolves once the command is running. */
async function chatRunningSleep() {
  const server = await startModelServer({ turns: [{ tool_calls: [{ name: 'terminal', arguments: { command: 'sleep 30' } }] }, { text: 'never' }] });
  servers.push(server);
  const home = tempDir('hermes-chat-home-');
  fs.writeFileSync(path.join(home, 'config.yaml'), 'approvals:\n  mode: off\n');
  const { running } = await chatUntilTool(home, server, 'wait', 'sleep 30');
  return { home, running };
}

describe('hermes chat -q', () => {
  it('prints the answer on stdout and exits 0', async () => {
    const { result, server } = await chat({ turns: [{ text: 'The answer is 42.' }] }, ['-q', 'What is the answer?']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('The answer is 42.');
    const body = server.requests[0]!.body as { messages: { role: string; content: string }[] };
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'What is the answer?' });
  });

  it('a backend killed mid-turn: exits 1 and says how to continue, instead of ending with 0 and nothing', async () => {
    // The tool runs (its start is printed): the turn is under way when the backend dies.
    const { home, running } = await chatRunningSleep();
    const [backend] = backendPids(home);
    process.kill(backend!, 'SIGKILL');
    const result = await running;
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    const stored = /hermes --resume (\S+)`/.exec(result.stderr)?.[1];
    expect(result.stderr.split('\n').at(-1)).toBe(
      `hermes: the backend was killed by SIGKILL before the turn finished. Continue with \`hermes -c\` (or \`hermes --resume ${stored}\`); the backend's log is ${home}/logs/backend.log.`,
    );
  });

  it('Ctrl+C (SIGINT) while a command runs: the call is marked interrupted, never ✓, and it exits 130', async () => {
    const { running } = await chatRunningSleep();
    running.kill('SIGINT');
    const result = await running;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toMatch(/^⊘ interrupted terminal \(\d+\.\d\d s\)$/m);
    expect(result.stderr).not.toMatch(/^✓ terminal/m);
  });

  it('--json prints the event stream as NDJSON', async () => {
    const { result } = await chat({ turns: [{ text: 'streamed' }] }, ['-q', 'hi', '--json']);
    expect(result.exitCode).toBe(0);
    const events = result.stdout.split('\n').map((line) => JSON.parse(line) as { type: string; payload?: { text?: string } });
    const types = events.map((e) => e.type);
    expect(types.indexOf('message.start')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('message.delta')).toBeGreaterThan(types.indexOf('message.start'));
    expect(events.at(-1)).toMatchObject({ type: 'message.complete', payload: { text: 'streamed', status: 'complete' } });
  });

  it('--json never prints an exported API key or a .env secret, though the model ran `env` and read the .env', async () => {
    const key = 'sk-hermes-chat-json-FAKE-0a1b2c3d4e5f6a7b';
    const secret = 'chat-dotenv-secret-m1n2b3v4';
    const script = {
      turns: [
        { tool_calls: [{ name: 'terminal', arguments: { command: 'env; printenv OPENAI_API_KEY' } }, { name: 'terminal', arguments: { command: 'cat $HERMES_HOME/.env' } }] },
        { text: 'looked' },
      ],
    };
    const { result } = await chat(script, ['-q', 'show env', '--json', '--yolo'], undefined, { env: { OPENAI_API_KEY: key }, dotenv: `CHAT_SECRET=${secret}\n` });
    expect(result.exitCode).toBe(0);
    const completes = result.stdout.split('\n').map((line) => JSON.parse(line) as { type: string; payload?: { result?: string } }).filter((e) => e.type === 'tool.complete');
    expect(completes[0]!.payload!.result).toMatch(/^PATH=/m);
    expect(completes[1]!.payload!.result).toContain('CHAT_SECRET=[REDACTED]');
    for (const text of [result.stdout, result.stderr]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(secret);
    }
  });

  it('credentials in --base-url (password, query) reach no log and no output', async () => {
    const password = 'chat-url-password-q9w8e7r6';
    const token = 'chat-url-token-z1x2c3v4';
    const home = tempDir('hermes-chat-home-');
    fs.writeFileSync(path.join(home, 'config.yaml'), 'agent:\n  api_max_retries: 0\n');
    // Port 9 (discard) answers nothing useful: the turn fails, which is all this needs.
    const baseUrl = `http://user:${password}@127.0.0.1:9/v1?api-key=${token}`;
    const result = await execa(process.execPath, [HERMES_BIN, 'chat', '-q', 'hi', '--json', '--provider', 'custom', '--base-url', baseUrl, '--model', 'm'], {
      env: { ...CLEAN_ENV, HERMES_HOME: home },
      reject: false,
      stdin: 'ignore',
      timeout: 60_000,
    });
    expect(result.exitCode).toBe(1);
    const tuiLog = fs.readFileSync(path.join(home, 'logs', 'tui.log'), 'utf8');
    expect(tuiLog).toContain('starting backend');
    expect(tuiLog).toContain('user:[REDACTED]@127.0.0.1');
    for (const text of [tuiLog, fs.readFileSync(path.join(home, 'logs', 'backend.log'), 'utf8'), result.stdout, result.stderr]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(token);
    }
  });

  it('a reader that stops reading (`| head -1`) ends it quietly: exit 0, no EPIPE stack trace', async () => {
    const server = await startModelServer({ turns: [{ text: 'word '.repeat(400), chunk_size: 5, chunk_delay_ms: 2 }] });
    servers.push(server);
    const home = tempDir('hermes-chat-home-');
    const running = execa(process.execPath, [HERMES_BIN, 'chat', '-q', 'talk', '--json', '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'], {
      env: { ...CLEAN_ENV, HERMES_HOME: home },
      reject: false,
      stdin: 'ignore',
      buffer: { stdout: false, stderr: true },
      timeout: 60_000,
    });
    // Close our end of the pipe once the first line came, as `head -1` does.
    running.stdout!.once('data', () => running.stdout!.destroy());
    const result = await running;
    expect(result.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(result.exitCode).toBe(0);
  });

  it('-c and --resume <title> continue a saved session: the model sees its history, nothing new is stored', async () => {
    const server = await startModelServer({ turns: [{ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' }] });
    servers.push(server);
    const home = tempDir('hermes-chat-home-');
    const run = (...args: string[]) =>
      execa(process.execPath, [HERMES_BIN, 'chat', ...args, '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'], {
        env: { ...CLEAN_ENV, HERMES_HOME: home },
        reject: false,
        stdin: 'ignore',
        timeout: 60_000,
      });
    expect((await run('-q', 'remember quokka')).stdout).toBe('first answer');
    expect((await run('-q', 'what animal?', '-c')).stdout).toBe('second answer');
    const seen = (i: number) => (server.requests[i]!.body as { messages: { role: string; content: string }[] }).messages.map((m) => m.content);
    expect(seen(1)).toEqual(expect.arrayContaining(['remember quokka', 'first answer', 'what animal?']));
    // The automatic title of the first prompt names the session.
    expect((await run('-q', 'and again?', '--resume', 'remember quokka')).stdout).toBe('third answer');
    expect(seen(2)).toEqual(expect.arrayContaining(['remember quokka', 'what animal?', 'second answer', 'and again?']));
    const listed = await execa(process.execPath, [HERMES_BIN, 'sessions', 'list'], { env: { ...CLEAN_ENV, HERMES_HOME: home }, reject: false });
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
    const missing = await run('-q', 'x', '--resume', 'no such session');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('no such session');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it('denies dangerous commands unless --yolo', async () => {
    const cwd = tempDir('hermes-chat-');
    const target = tempDir('hermes-chat-target-');
    const script = { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command: `rm -rf ${target}` } }] }, { text: 'tried' }] };
    const denied = await chat(script, ['-q', 'clean up'], cwd);
    expect(denied.result.exitCode).toBe(0);
    expect(denied.result.stderr).toMatch(/blocked terminal/);
    expect(fs.existsSync(target)).toBe(true);
    const allowed = await chat(script, ['-q', 'clean up', '--yolo'], cwd);
    expect(allowed.result.exitCode).toBe(0);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('says how to configure a model when there is none, and exits 2', async () => {
    const home = tempDir('hermes-chat-home-');
    const result = await execa(process.execPath, [HERMES_BIN, 'chat', '-q', 'hi'], {
      env: { ...CLEAN_ENV, HERMES_HOME: home },
      reject: false,
      stdin: 'ignore',
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/config\.yaml/);
  });
});
