import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompletionState } from '../commands/slashCompletion.ts';
import type { TranscriptItem, ViewState } from '../state/viewState.ts';
import { fakeBackendController, replied, transcriptTexts, untilState } from '../testing/controllerRig.ts';
import type { SessionController } from './sessionController.ts';

let controller: SessionController;
let restore: () => Promise<void>;

beforeEach(async () => {
  ({ controller, restore } = fakeBackendController());
  await controller.start();
});

afterEach(() => restore());

const view = (check: (state: ViewState) => boolean) => untilState(controller.view.store, check);
const commands = (state: ViewState) => state.transcript.filter((item): item is Extract<TranscriptItem, { kind: 'command' }> => item.kind === 'command');
const lastCommand = async (command: string) => (await view((s) => commands(s).some((c) => c.command === command))).transcript.findLast((item) => item.kind === 'command');
const texts = transcriptTexts;

describe('slash commands through slash.exec', () => {
  it('shows a command\'s multi-line output in the transcript, plugin commands included', async () => {
    expect(controller.submit('/help')).toBe(true);
    expect(await lastCommand('/help')).toMatchObject({ output: expect.stringContaining('/help  Show the commands\n/history') });
    controller.submit('/greet');
    expect(await lastCommand('/greet')).toMatchObject({ output: 'hello from the greeter plugin' });
  });

  it('shows the backend\'s refusal of an unknown command, with its suggestion, and sends nothing to the model', async () => {
    controller.submit('/hepl');
    expect(await lastCommand('/hepl')).toMatchObject({ error: '/hepl is not a command. Did you mean /help?' });
    expect(texts(controller.view.store.getState()).some((text) => text.startsWith('user:'))).toBe(false);
  });

  it('/undo puts the prompt back into an empty composer, and keeps a draft the user is writing', async () => {
    controller.submit('a prompt to take back');
    await view(replied('echo: a prompt to take back'));
    controller.submit('/undo');
    await untilState(controller.composer, (s) => s.draft === 'a prompt to take back');
    expect(controller.composer.getState().cursor).toBe('a prompt to take back'.length);

    controller.composer.setState({ draft: 'my draft', cursor: 8 });
    controller.submit('/undo');
    await view((s) => texts(s).some((text) => text.includes('your draft was kept')));
    expect(controller.composer.getState().draft).toBe('my draft');
  });

  it('/retry sends the last prompt again', async () => {
    controller.submit('once more');
    await view(replied('echo: once more'));
    controller.submit('/retry');
    await view((s) => !s.busy && texts(s).filter((text) => text === 'assistant: echo: once more').length === 2);
  });

  it('/new switches to the session the backend opened (its info came first), and prompts go there', async () => {
    controller.submit('/new');
    const state = await view((s) => s.sessionId === 'sess-2');
    expect(state.info?.stored_session_id).toBe('stored-2');
    expect(state.transcript.filter((item) => item.kind === 'header')).toHaveLength(2);
    controller.submit('hello again');
    await view(replied('echo: hello again'));
  });

  it('/branch switches to the branch, waiting for its info that comes after the answer', async () => {
    controller.submit('/branch try-b');
    const state = await view((s) => s.sessionId === 'sess-3');
    expect(state.info?.stored_session_id).toBe('stored-3');
    expect(texts(state).some((text) => text.startsWith('notice: branched: now in "try-b"'))).toBe(true);
  });

  it('/stop while a reply streams interrupts it; a command that cannot run while busy says why', async () => {
    controller.submit('stream-long');
    await view((s) => s.busy && (s.live?.text ?? '').includes('a long reply'));
    controller.submit('/compress');
    expect(await lastCommand('/compress')).toMatchObject({ error: expect.stringContaining("can't run while a turn is running") });
    controller.submit('/stop');
    const state = await view((s) => !s.busy);
    expect(state.transcript.find((item) => item.kind === 'assistant')).toMatchObject({ status: 'interrupted' });
    expect(await lastCommand('/stop')).toMatchObject({ output: 'Interrupted the running turn.' });
  });

  it('/quit asks the screen to exit', async () => {
    let exited = false;
    controller.onExitRequest(() => {
      exited = true;
    });
    controller.submit('/quit');
    await view((s) => commands(s).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(exited).toBe(true);
  });

  it('shows the output of a command whose directive this TUI does not know, and says so for the model picker', async () => {
    controller.submit('/future');
    expect(await lastCommand('/future')).toMatchObject({ output: 'from a newer backend' });
    controller.submit('/model');
    await view((s) => texts(s).some((text) => text.includes('/model <name> switches the model')));
  });

  it('keeps /sessions local: the picker opens without asking slash.exec', async () => {
    controller.submit('/sessions');
    expect(controller.sessions.picker.isOpen).toBe(true);
    expect(commands(controller.view.store.getState())).toEqual([]);
  });
});

describe('slash completion list', () => {
  const list = (check: (state: CompletionState | undefined) => boolean) => untilState(controller.completion.store, check);
  const type = (draft: string) => controller.composer.setState({ draft, cursor: draft.length });

  it('opens for a leading / with the matching commands, and closes when the draft stops being a command', async () => {
    type('/');
    const all = await list((s) => s !== undefined);
    expect(all?.items.map((item) => item.text)).toContain('/greet');
    type('/he');
    const help = await list((s) => s?.text === '/he');
    expect(help?.items).toEqual([{ text: '/help', display: '/help', meta: 'Show the commands' }]);
    type('hello');
    expect(controller.completion.isOpen).toBe(false);
  });

  it('filters synchronously against the cached catalog: the list answers each text the moment it is typed', async () => {
    type('/');
    await list((s) => s !== undefined); // the catalog has landed
    type('/h');
    type('/hi');
    expect(controller.completion.store.getState()?.text).toBe('/hi');
    expect(controller.completion.store.getState()?.items.map((item) => item.text)).toEqual(['/history']);
    type('/he');
    expect(controller.completion.store.getState()?.items.map((item) => item.text)).toEqual(['/help']);
  });

  it('stays closed after Esc until the text changes', async () => {
    type('/un');
    await list((s) => s?.text === '/un');
    controller.completion.dismiss();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(controller.completion.isOpen).toBe(false);
    type('/u');
    await list((s) => s?.text === '/u');
  });
});
