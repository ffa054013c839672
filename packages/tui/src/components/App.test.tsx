/**
 * The whole screen from a real SessionController's stores, with no backend: the controller is never
 * started, the states are set on its stores as the reducer would leave them, and Ink draws into an
 * in-memory terminal of a given size. What talks to a backend is left to the pty journeys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeFrom } from '../app/runtime.ts';
import { SessionController } from '../app/sessionController.ts';
import { silentLogger } from '../logging/logger.ts';
import { loadMarkdown } from '../markdown/loadMarkdown.ts';
import type { ViewState } from '../state/viewState.ts';
import { overflowing, renderLive, type LiveRender } from '../testing/renderFrame.ts';
import { approvalPrompt, tool, viewState } from '../testing/viewFixtures.ts';
import { App } from './App.tsx';

const LOG_FILE = '/home/u/.hermes/logs/tui.log';
let screen: LiveRender | undefined;

function controllerWith(state: Partial<ViewState> | undefined): SessionController {
  const controller = new SessionController({
    backend: {},
    runtime: runtimeFrom(new URL('../main.tsx', import.meta.url).href),
    logger: { ...silentLogger, file: LOG_FILE },
    cwd: '/srv/project',
    cols: 80,
  });
  if (state) controller.view.store.setState(viewState(state), true);
  return controller;
}

function draw(controller: SessionController, columns: number, rows: number): LiveRender {
  screen = renderLive(<App controller={controller} onExit={() => undefined} />, { columns, rows });
  return screen;
}

afterEach(() => {
  screen?.unmount();
  screen = undefined;
});

const lastRows = (live: LiveRender, count: number) => live.rows().slice(-count);

describe('App', () => {
  it('while the backend starts says so, and takes typing already', () => {
    const live = draw(controllerWith(undefined), 80, 24);
    const rows = live.rows();
    expect(rows).toContain('⚕ hermes is starting…');
    expect(rows).toContain('❯   hermes is starting; you can type already');
    expect(rows.at(-1)).toMatch(/^⠋ starting the backend…/);
  });

  it('when ready shows the transcript, the prompt with its hint, and the status line with the model', async () => {
    // Replies wait for the markdown renderer (loaded on first need) before they are printed.
    await loadMarkdown();
    const live = draw(
      controllerWith({ transcript: [{ kind: 'user', id: 1, text: 'hi' }, { kind: 'assistant', id: 2, text: 'Hello!', continued: false }] }),
      80,
      24,
    );
    expect(live.rows().slice(0, 4)).toEqual(['', '❯ hi', '', '● Hello!']);
    expect(lastRows(live, 3)).toEqual(['─'.repeat(80), '❯   Ask hermes anything · !cmd runs a shell command', expect.stringMatching(/^● ready · gpt-test +Shift\+Tab: yolo on$/)]);
  });

  it('puts an approval card in place of the live turn, keeps the draft, and fits the card in the terminal', () => {
    const command = Array.from({ length: 60 }, (_, i) => `echo step-${i + 1}`).join('\n');
    const prompt = approvalPrompt({ command, findings: [{ level: 'hardline', rule: 'delete.root', target: '/', why: 'deletes everything', line: 40 }] });
    const controller = controllerWith({ busy: true, live: { text: 'working', reasoning: '', tools: [tool({ status: 'running' })], committed: false, sawDelta: true }, prompts: [prompt] });
    controller.composer.setState({ draft: 'next idea', cursor: 9 });
    const live = draw(controller, 80, 24);
    const rows = live.rows();
    expect(rows.join('\n')).toContain('⚠ approval needed · terminal');
    expect(rows.join('\n')).toContain('40│ echo step-40');
    expect(rows.join('\n')).not.toContain('● working');
    expect(rows).toContain('❯ next idea');
    expect(rows.at(-1)).toMatch(/^● waiting for your approval/);
    // The dynamic zone stays shorter than the terminal, or Ink would clear the screen on every frame.
    expect(rows.length).toBeLessThan(24);
  });

  it('keeps the screen shorter than the terminal with a streaming reply and a draft whose lines wrap', () => {
    const text = Array.from({ length: 40 }, (_, i) => `reply line ${i + 1}`).join('\n');
    const controller = controllerWith({ busy: true, live: { text, reasoning: '', tools: [], committed: false, sawDelta: true } });
    const draft = `${'a long first line of the next prompt '.repeat(2)}\n${'and a second one that wraps as well '.repeat(2)}`;
    controller.composer.setState({ draft, cursor: draft.length });
    const live = draw(controller, 40, 20);
    const rows = live.rows();
    expect(rows.join('\n')).toContain('reply line 40');
    expect(rows.join('\n')).toContain('wraps as');
    // Ink clears the whole screen on every frame once its output reaches the terminal's height.
    expect(rows.length).toBeLessThan(20);
  });

  it('shows why the backend failed above the prompt, pointing to the log', () => {
    const live = draw(controllerWith({ phase: 'failed', failure: { message: 'the backend exited with code 1', stderrTail: ['Error: no such table'] } }), 80, 24);
    const text = live.text();
    expect(text).toContain('the backend exited with code 1');
    expect(text).toContain('Error: no such table');
    expect(text).toContain(`More in ${LOG_FILE}. Press Ctrl+C twice to exit.`);
    expect(text).toContain('❯   the backend is not running');
    expect(live.rows().at(-1)).toMatch(/^● backend stopped .*Ctrl\+C twice to exit$/);
  });

  it('at 40 columns lays everything out inside the width, the setup reminder wrapped, and follows a resize', () => {
    const controller = controllerWith({ setup: { hint: 'set a model' }, usage: undefined });
    const live = draw(controller, 40, 20);
    expect(overflowing(live.rows(), 40)).toEqual([]);
    expect(live.rows()).toEqual(expect.arrayContaining(['⚠ No model configured: see the setup', 'instructions above, or run hermes --demo']));
    live.resize(60, 20);
    // Whole at 60×20 too, wrapped rather than cut.
    return expect
      .poll(() => live.rows().join('\n'))
      .toContain('⚠ No model configured: see the setup instructions above, or\nrun hermes --demo');
  });

  it('opens the completion list under the prompt, and keeps it closed while a card waits', () => {
    const controller = controllerWith({});
    controller.composer.setState({ draft: '/mo', cursor: 3 });
    controller.completion.store.setState({ kind: 'command', text: '/mo', items: [{ text: '/model', display: '/model', meta: 'switch the model' }], replaceFrom: 0, selected: 0, moved: false }, true);
    const live = draw(controller, 80, 24);
    expect(lastRows(live, 3)).toEqual(['❯ /mo', '› /model  switch the model', expect.stringMatching(/^● ready/)]);
    controller.view.store.setState({ prompts: [approvalPrompt({ command: 'rm -rf build' })] });
    return expect.poll(() => lastRows(live, 3)).toEqual(['─'.repeat(80), '❯ /mo', expect.stringMatching(/^● waiting for your approval/)]);
  });
});
