import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ViewState } from '../state/viewState.ts';
import { fakeBackendController, replied, transcriptTexts, untilState } from '../testing/controllerRig.ts';
import type { SessionController } from './sessionController.ts';

let controller: SessionController;
let restore: () => Promise<void>;

beforeEach(() => {
  ({ controller, restore } = fakeBackendController());
});

afterEach(() => restore());

/** Resolves once the view state satisfies `check`. */
const until = (check: (state: ViewState) => boolean) => untilState(controller.view.store, check);
const texts = transcriptTexts;

/** Submits `text` and waits until its cards are queued. */
async function askedBy(text: string, cards = 1): Promise<ViewState> {
  await controller.start();
  expect(controller.submit(text)).toBe(true);
  return until((s) => s.prompts.length === cards);
}


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

  it('sends a prompt and shows the reply; prompts sent while busy are queued and go in order, each as its own turn', async () => {
    await controller.start();
    expect(controller.submit('hello')).toBe(true);
    expect(controller.submit('next one')).toBe(true);
    expect(controller.submit('and last')).toBe(true);
    expect(controller.composerSide.getState().queued).toEqual(['next one', 'and last']);
    const done = await until(replied('echo: and last'));
    expect(texts(done).filter((t) => !t.startsWith('notice:'))).toEqual([
      'user: hello',
      'assistant: echo: hello',
      'user: next one',
      'assistant: echo: next one',
      'user: and last',
      'assistant: echo: and last',
    ]);
    expect(controller.composerSide.getState().queued).toEqual([]);
    expect(done.usage?.total).toBe(3);
  });

  it('puts prompt.submit on the pipe before the view shows the prompt (its repaint does not delay the turn)', async () => {
    await controller.start();
    // White-box: the backend's stdin, to see when the frame is handed to the pipe.
    const stdin = (controller as unknown as { backend: { child: { stdin: { bytesWritten: number } } } }).backend.child.stdin;
    const before = stdin.bytesWritten;
    let writtenWhenShown = -1;
    const stop = controller.view.store.subscribe((state) => {
      if (writtenWhenShown < 0 && texts(state).includes('user: hello')) writtenWhenShown = stdin.bytesWritten;
    });
    expect(controller.submit('hello')).toBe(true);
    // A prompt sent in the same moment is queued behind it, as when the first was already on screen.
    expect(controller.submit('next one')).toBe(true);
    expect(controller.composerSide.getState().queued).toEqual(['next one']);
    await until(replied('echo: next one'));
    stop();
    expect(writtenWhenShown).toBeGreaterThan(before + '"prompt.submit"'.length);
  });

  it('shows the error of a prompt the backend refused', async () => {
    await controller.start();
    controller.submit('nomodel');
    const state = await until((s) => texts(s).some((t) => t.includes('no model configured')));
    expect(state.busy).toBe(false);
  });

  it('restarts a backend that dies mid-reply, keeps the partial reply and resumes the stored session', async () => {
    await controller.start();
    controller.submit('crash-mid-reply');
    const state = await until((s) => texts(s).includes('notice: backend restarted (exit code 3) — session resumed'));
    expect(state.transcript).toContainEqual(expect.objectContaining({ kind: 'assistant', text: 'a partial reply', status: 'interrupted' }));
    expect(state).toMatchObject({ phase: 'ready', busy: false, info: { stored_session_id: 'stored-1' } });
    expect(controller.submit('again')).toBe(true);
    await until(replied('echo: again'));
  });

  it('restarts a backend that closed its output but kept running, once it is stopped', async () => {
    await controller.start();
    controller.submit('close-output');
    const state = await until((s) => s.phase === 'ready' && texts(s).some((t) => t.startsWith('notice: backend restarted')));
    // Stopped by closing its stdin, which the fake backend answers by exiting with 0.
    expect(texts(state)).toContain('notice: backend restarted (exit code 0) — session resumed');
    expect(controller.submit('again')).toBe(true);
    await until(replied('echo: again'));
  });

  it('ends a !cmd the dying backend was running, saying so, and restarts', async () => {
    await controller.start();
    expect(controller.submit('!crash')).toBe(true);
    const state = await until((s) => s.phase === 'ready' && texts(s).some((t) => t.startsWith('notice: backend restarted')));
    expect(state.shell).toBeUndefined();
    expect(texts(state)).toContain('notice: !crash failed: the backend stopped before it finished');
  });

  it('ends a /command the dying backend was running, saying so in words, and restarts', async () => {
    await controller.start();
    controller.submit('/crash');
    const state = await until((s) => s.phase === 'ready' && texts(s).some((t) => t.startsWith('notice: backend restarted')));
    expect(state.transcript.filter((item) => item.kind === 'command')).toMatchObject([{ kind: 'command', command: '/crash', error: 'the backend stopped before it finished' }]);
  });

  it('stops restarting a backend that keeps dying, with what it wrote to stderr and how to continue', async () => {
    await controller.start();
    for (let restart = 1; restart <= 3; restart++) {
      expect(controller.submit('crash')).toBe(true);
      await until((s) => s.phase === 'ready' && texts(s).filter((t) => t.includes('backend restarted (exit code 3)')).length === restart);
    }
    controller.submit('crash');
    const state = await until((s) => s.phase === 'failed');
    expect(state.failure?.message).toMatch(/^the backend stopped again \(exit code 3\) after 3 restarts within a minute/);
    expect(state.failure?.message).toContain('Continue with `hermes -c` (or `hermes --resume stored-1`)');
    expect(state.failure?.message).toMatch(/logs\/backend\.log\.$/);
    expect(state.failure?.stderrTail).toContain('fatal: the fake backend crashed on purpose');
    // Each lost prompt is marked interrupted; the request the dead backend never answered adds no error of its own.
    expect(texts(state).filter((t) => /disposed|closed/.test(t))).toEqual([]);
    expect(state.busy).toBe(false);
    expect(controller.submit('anyone?')).toBe(false);
  });

  it('reports a restarted backend that cannot start, with its stderr, instead of trying again', async () => {
    await controller.start();
    process.env.HERMES_RPC_ENTRY = fileURLToPath(new URL('../testing/does-not-exist.mjs', import.meta.url));
    controller.submit('crash');
    const state = await until((s) => s.phase === 'failed');
    expect(state.failure?.message).toMatch(/^hermes could not restart the backend: the backend exited with code 1 before it was ready\. Continue with `hermes -c`/);
    expect(state.failure?.stderrTail.join('\n')).toMatch(/Cannot find module/);
  });

  it('reports a backend that cannot start', async () => {
    process.env.HERMES_RPC_ENTRY = fileURLToPath(new URL('../testing/does-not-exist.mjs', import.meta.url));
    await controller.start();
    const state = controller.view.store.getState();
    expect(state.phase).toBe('failed');
    expect(state.failure?.message).toMatch(/hermes could not start: the backend exited with code 1 before it was ready/);
    expect(state.failure?.stderrTail.join('\n')).toMatch(/Cannot find module/);
  });

  it('queues an approval with Deny selected, and sends the chosen answer back', async () => {
    const state = await askedBy('approve rm -rf build');
    const [card] = state.prompts;
    expect(card).toMatchObject({ kind: 'approval', id: 'srq-1', request: { tool_name: 'terminal', command: 'rm -rf build' } });
    expect(card.kind === 'approval' && card.choices[card.selected]).toBe('deny');
    controller.answerPrompt(card.id, { kind: 'approval', choice: 'once' });
    const done = await until(replied('approval: once'));
    expect(done.prompts).toEqual([]);
    expect(texts(done)).toContain('notice: allowed once: terminal rm -rf build');
    expect(done.transcript.some((item) => item.kind === 'tool' && item.tool.status === 'done')).toBe(true);
  });

  it('sends deny when the card is declined, and shows the tool as blocked', async () => {
    const [card] = (await askedBy('approve rm -rf build')).prompts;
    controller.answerPrompt(card.id, undefined);
    const done = await until(replied('approval: deny'));
    expect(texts(done)).toContain('notice: denied: terminal rm -rf build');
    expect(done.transcript.some((item) => item.kind === 'tool' && item.tool.status === 'blocked')).toBe(true);
  });

  it('shows two pending approvals one after the other, in the order they came', async () => {
    const state = await askedBy('approve-two', 2);
    expect(state.prompts.map((p) => (p.kind === 'approval' ? p.request.command : ''))).toEqual(['rm -rf first', 'rm -rf second']);
    controller.answerPrompt(state.prompts[0].id, { kind: 'approval', choice: 'session' });
    const next = await until((s) => s.prompts.length === 1);
    controller.answerPrompt(next.prompts[0].id, undefined);
    await until(replied('approvals: session, deny'));
  });

  it('sends a clarify answer back, and an empty one when the user declines', async () => {
    const [card] = (await askedBy('clarify')).prompts;
    expect(card).toMatchObject({ kind: 'clarify', choices: ['red', 'blue'], request: { question: 'Which colour?' } });
    controller.answerPrompt(card.id, { kind: 'clarify', answer: 'blue' });
    const done = await until(replied('clarify: "blue"'));
    expect(texts(done)).toContain('notice: Which colour? → blue');

    controller.submit('clarify-free');
    const [free] = (await until((s) => s.prompts.length === 1)).prompts;
    controller.answerPrompt(free.id, undefined);
    await until(replied('clarify: ""'));
  });

  it('takes the card down when the backend withdraws the request, and answers it with deny', async () => {
    await askedBy('approve-withdrawn');
    controller.interrupt();
    const state = await until((s) => s.prompts.length === 0 && !s.busy);
    expect(texts(state)).toContain('notice: approval withdrawn: interrupted');
    // The deny travels to the backend on its own; ask until the backend has it (it may lag the card).
    for (let attempt = 1; ; attempt += 1) {
      const before = texts(controller.view.store.getState()).length;
      controller.submit('answers');
      const after = await until((s) => !s.busy && texts(s).length > before + 1);
      if (texts(after).includes('assistant: answers: srq-1=deny')) break;
      expect(attempt, 'the deny never reached the backend').toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('still answers secret requests with "method not found"', async () => {
    await controller.start();
    controller.submit('secret');
    await until(replied('secret: error -32601'));
  });

  it('runs a !cmd through shell.exec, not the model, and queues another prompt until it is done', async () => {
    await controller.start();
    expect(controller.submit('!ls -la')).toBe(true);
    expect(controller.view.store.getState().shell).toEqual({ command: 'ls -la' });
    expect(controller.submit('after it')).toBe(true);
    expect(controller.composerSide.getState().queued).toEqual(['after it']);
    const done = await until((s) => s.transcript.some((item) => item.kind === 'shell'));
    expect(done.shell).toBeUndefined();
    expect(done.transcript.find((item) => item.kind === 'shell')).toMatchObject({ kind: 'shell', command: 'ls -la', stdout: 'ran: ls -la\n', code: 0 });
    expect(texts(done)).toContain('user: !ls -la');
    const after = await until(replied('echo: after it'));
    expect(texts(after).filter((t) => t.startsWith('user:'))).toEqual(['user: !ls -la', 'user: after it']);
    // The model answered only the queued prompt: the !cmd never reached it.
    expect(texts(after).filter((t) => t.startsWith('assistant:'))).toEqual(['assistant: echo: after it']);
  });

  it('answers a bare ! with how to use it, and sends nothing', async () => {
    await controller.start();
    expect(controller.submit('!')).toBe(true);
    const state = controller.view.store.getState();
    expect(state.shell).toBeUndefined();
    expect(texts(state).at(-1)).toMatch(/^notice: Type a shell command after "!"/);
  });

  it('toggles yolo through config.set and shows the backend\'s warning', async () => {
    await controller.start();
    controller.toggleYolo();
    const on = await until((s) => texts(s).includes('notice: yolo is on: fake warning'));
    expect(on.info?.yolo).toBe(true);
    controller.toggleYolo();
    const off = await until((s) => s.info?.yolo === false && texts(s).some((text) => text.startsWith('notice: yolo is off')));
    expect(off.info?.yolo).toBe(false);
  });
});
