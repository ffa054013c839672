import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.ts';
import type { ViewState } from '../state/viewState.ts';
import { runtimeFrom } from './runtime.ts';
import { SessionController } from './sessionController.ts';

const FAKE_BACKEND = fileURLToPath(new URL('../testing/fakeBackend.mjs', import.meta.url));

let controller: SessionController;
const saved = process.env.HERMES_RPC_ENTRY;

beforeEach(() => {
  process.env.HERMES_RPC_ENTRY = FAKE_BACKEND;
  controller = new SessionController({
    backend: {},
    runtime: runtimeFrom(new URL('../main.tsx', import.meta.url).href),
    logger: silentLogger,
    cwd: process.cwd(),
    cols: 80,
  });
});

afterEach(async () => {
  await controller.shutdown();
  if (saved === undefined) delete process.env.HERMES_RPC_ENTRY;
  else process.env.HERMES_RPC_ENTRY = saved;
});

/** Resolves once the view state satisfies `check`. */
function until(check: (state: ViewState) => boolean): Promise<ViewState> {
  const store = controller.view.store;
  return new Promise((resolve) => {
    if (check(store.getState())) return resolve(store.getState());
    const stop = store.subscribe((state) => {
      if (!check(state)) return;
      stop();
      resolve(state);
    });
  });
}

const texts = (state: ViewState) =>
  state.transcript.flatMap((item) => ('text' in item ? [`${item.kind}: ${item.text}`] : []));

describe('SessionController against a real backend process', () => {
  it('opens a session, keeps its early events and drops other sessions\' events', async () => {
    await controller.start();
    const state = controller.view.store.getState();
    expect(state.phase).toBe('ready');
    expect(state.info?.model).toBe('fake-model');
    // A prompt round-trip guarantees every earlier event has been handled.
    controller.submit('sync');
    const settled = await until((s) => !s.busy && texts(s).includes('assistant: echo: sync'));
    expect(settled.title).toBe('early title');
    expect(settled.transcript[0].kind).toBe('header');
    expect(texts(settled)).toEqual(['notice: plugin "broken" failed to load', 'user: sync', 'assistant: echo: sync']);
  });

  it('sends a prompt and shows the reply; refuses a second prompt while busy', async () => {
    await controller.start();
    expect(controller.submit('hello')).toBe(true);
    expect(controller.submit('too soon')).toBe(false);
    const done = await until((s) => !s.busy && s.transcript.some((item) => item.kind === 'assistant'));
    expect(texts(done)).toContain('assistant: echo: hello');
    expect(texts(done)).not.toContain('user: too soon');
    expect(done.usage?.total).toBe(3);
  });

  it('shows the error of a prompt the backend refused', async () => {
    await controller.start();
    controller.submit('nomodel');
    const state = await until((s) => texts(s).some((t) => t.includes('no model configured')));
    expect(state.busy).toBe(false);
  });

  it('reports a backend that dies, with what it wrote to stderr', async () => {
    await controller.start();
    controller.submit('crash');
    const state = await until((s) => s.phase === 'failed');
    expect(state.failure?.message).toBe('the backend exited with code 3');
    expect(state.failure?.stderrTail).toContain('fatal: the fake backend crashed on purpose');
    expect(state.busy).toBe(false);
    expect(controller.submit('anyone?')).toBe(false);
  });

  it('reports a backend that cannot start', async () => {
    process.env.HERMES_RPC_ENTRY = fileURLToPath(new URL('../testing/does-not-exist.mjs', import.meta.url));
    await controller.start();
    const state = controller.view.store.getState();
    expect(state.phase).toBe('failed');
    expect(state.failure?.message).toMatch(/hermes could not start: the backend exited with code 1 before it was ready/);
    expect(state.failure?.stderrTail.join('\n')).toMatch(/Cannot find module/);
  });
});
