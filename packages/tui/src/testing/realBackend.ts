/**
 * The real `hermes` bundle in a pseudo-terminal, talking to the real backend, whose model is the
 * scripted model server (the one fake: a real HTTP server speaking the OpenAI wire format).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, vi } from 'vitest';
import { startModelServer, type ModelServer, type Script } from '../../../../scripts/model-server/index.ts';
import { HERMES_BIN, spawnHermes, type HermesPty, type SpawnOptions } from './ptyHarness.ts';

/** API keys and model settings from the developer's shell must not leak into a test. */
export const CLEAN_ENV = {
  OPENAI_API_KEY: undefined,
  OPENROUTER_API_KEY: undefined,
  ANTHROPIC_API_KEY: undefined,
  HERMES_MODEL: undefined,
  HERMES_PROVIDER: undefined,
  HERMES_BASE_URL: undefined,
  HERMES_RPC_ENTRY: undefined,
};

/** What a test started, so its `afterEach` can stop it whether or not the test passed. */
export interface Running {
  hermes: HermesPty[];
  servers: ModelServer[];
}

export async function stopAll(running: Running): Promise<void> {
  await Promise.all(running.hermes.splice(0).map((hermes) => hermes.kill()));
  await Promise.all(running.servers.splice(0).map((server) => server.close()));
}

/** Starts the model server with `script` and hermes against it; resolves once the prompt is ready. */
export async function hermesWithModel(
  running: Running,
  script: Script,
  options: Omit<SpawnOptions, 'args' | 'env'> & {
    /** Extra arguments, e.g. `--resume <id>`. */
    args?: string[];
    /** A HERMES_HOME shared between runs (make it with tempDir()); each run gets a fresh one otherwise. */
    home?: string;
    /** Variables exported to hermes (over CLEAN_ENV), e.g. an API key a test must never see leak. */
    env?: Record<string, string>;
  } = {},
): Promise<{ hermes: HermesPty; server: ModelServer }> {
  const server = await startModelServer(script);
  running.servers.push(server);
  const { args = [], home, env, ...spawn } = options;
  const hermes = spawnHermes({
    ...spawn,
    args: ['--tui', '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model', ...args],
    env: { ...CLEAN_ENV, ...(home ? { HERMES_HOME: home } : {}), ...env },
  });
  running.hermes.push(hermes);
  await hermes.waitForText('Ask hermes anything', 20_000);
  return { hermes, server };
}

/** The chat-completions requests the model server received, as JSON text, oldest first. */
export function modelRequests(server: ModelServer): string[] {
  return server.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => JSON.stringify(request.body));
}

/** The last user message of each chat request the model server got, oldest first. */
export function promptsSeen(server: ModelServer): string[] {
  return server.requests
    .filter((request) => request.path === '/v1/chat/completions')
    .map((request) => {
      const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
      const last = messages.filter((message) => message.role === 'user').at(-1);
      return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
    });
}

/** The pids of every backend run with `hermesHome`, oldest first, from the line each logs when ready. */
export function backendPids(hermesHome: string): number[] {
  const log = readFileSync(join(hermesHome, 'logs', 'backend.log'), 'utf8');
  return [...log.matchAll(/backend ready \(pid (\d+)/g)].map((match) => Number(match[1]));
}

/**
 * Starts `hermes chat -q <prompt>` against `server` in the background (approvals as configured in
 * `home`) and resolves once its stderr shows the tool `preview` running: the turn is under way.
 */
export async function chatUntilTool(home: string, server: ModelServer, prompt: string, preview: string) {
  const running = execa(process.execPath, [HERMES_BIN, 'chat', '-q', prompt, '--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'], {
    env: { ...CLEAN_ENV, HERMES_HOME: home },
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  let stderr = '';
  running.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await vi.waitFor(() => expect(stderr).toContain(`… terminal ${preview}`), { timeout: 20_000, interval: 50 });
  return { running, stderr: () => stderr };
}
