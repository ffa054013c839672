import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.ts';
import { BackendProcess, BackendStartError, describeExit, exitCause } from './backendProcess.ts';
import { spawnBackend } from './backendSpawn.ts';

/** A real child process running a few lines of JavaScript in place of the backend. */
function fakeBackend(source: string): BackendProcess {
  return new BackendProcess({ command: process.execPath, args: ['-e', source] }, silentLogger);
}

const READY_THEN_ECHO = `
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { type: 'gateway.ready', payload: { version: '0.0.0', protocol: 1, pid: process.pid } } }) + '\\n');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf('\\n')) >= 0) {
    const message = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { closed: true, echo: message.params } }) + '\\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;

describe('BackendProcess', () => {
  it('connects to a backend that reports ready, answers requests and exits cleanly when its stdin ends', async () => {
    const backend = fakeBackend(READY_THEN_ECHO);
    const ready = await backend.waitReady(10_000);
    expect(ready.protocol).toBe(1);
    await expect(backend.client.request('session.close', { session_id: 's9' })).resolves.toMatchObject({
      closed: true,
      echo: { session_id: 's9' },
    });
    const exit = await backend.shutdown();
    expect(exit.code).toBe(0);
    expect(backend.hasExited).toBe(true);
  });

  it('fails the startup with the stderr tail when the backend dies before it is ready', async () => {
    const backend = fakeBackend(`process.stderr.write('loading config\\nconfig.yaml line 3: bad indent\\n'); process.exit(3);`);
    const failure = backend.waitReady(10_000);
    await expect(failure).rejects.toBeInstanceOf(BackendStartError);
    await expect(failure).rejects.toMatchObject({
      message: 'the backend exited with code 3 before it was ready',
      stderrTail: ['loading config', 'config.yaml line 3: bad indent'],
    });
  });

  it('fails the startup when ready never comes, and kills the silent backend on shutdown', async () => {
    const backend = fakeBackend(`process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000);`);
    await expect(backend.waitReady(300)).rejects.toThrow(/did not report ready/);
    const exit = await backend.shutdown(200);
    expect(exit.signal).toBe('SIGTERM');
  });

  it('fails the startup with the reason when the backend cannot be spawned at all', async () => {
    const backend = new BackendProcess({ command: '/nonexistent/hermes-node', args: [] }, silentLogger);
    await expect(backend.waitReady(10_000)).rejects.toThrow(/^the backend could not be started before it was ready: .*ENOENT/);
    expect(backend.hasExited).toBe(true);
  });

  it('kills a backend that ignores SIGTERM a second after asking it to stop', async () => {
    const backend = fakeBackend(`process.on('SIGTERM', () => {}); process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000);`);
    await expect(backend.waitReady(300)).rejects.toThrow(/did not report ready/);
    const exit = await backend.shutdown(200);
    expect(exit.signal).toBe('SIGKILL');
  });

  it('takes over a backend spawned before its code loaded, missing nothing it did meanwhile (output, exit, a failed spawn)', async () => {
    const early = spawnBackend({ command: process.execPath, args: ['-e', `process.stderr.write('config.yaml line 3: bad indent\\n'); process.exit(3);`] });
    const missing = spawnBackend({ command: '/nonexistent/hermes-node', args: [] });
    // Long enough for the first to have exited and the second to have failed, nobody listening yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(new BackendProcess(early, silentLogger).waitReady(10_000)).rejects.toMatchObject({
      message: 'the backend exited with code 3 before it was ready',
      stderrTail: ['config.yaml line 3: bad indent'],
    });
    await expect(new BackendProcess(missing, silentLogger).waitReady(10_000)).rejects.toThrow(/^the backend could not be started before it was ready: .*ENOENT/);
  });

  it('describes exits in words', () => {
    expect(describeExit({ code: null, signal: 'SIGKILL', stderrTail: [] })).toBe('the backend was killed by SIGKILL');
    expect(describeExit({ code: 1, signal: null, stderrTail: [] })).toBe('the backend exited with code 1');
  });

  it('names how it ended in a few words for the restart notice', () => {
    expect(exitCause({ code: null, signal: 'SIGKILL', stderrTail: [] })).toBe('exit signal SIGKILL');
    expect(exitCause({ code: 3, signal: null, stderrTail: [] })).toBe('exit code 3');
    expect(exitCause({ code: null, signal: null, stderrTail: [], spawnError: 'ENOENT' })).toBe('could not start: ENOENT');
  });
});
