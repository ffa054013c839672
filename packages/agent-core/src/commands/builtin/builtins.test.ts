import { describe, expect, it } from 'vitest';
import { CommandRegistry } from '../commandRegistry.ts';
import { recordingContext, type RecordingContext } from '../commandTestUtil.ts';
import { registerBuiltinCommands } from './index.ts';

const registry = new CommandRegistry();
registerBuiltinCommands(registry);

async function run(text: string, ctx: RecordingContext = recordingContext()) {
  return { result: await registry.dispatch(text, ctx), calls: ctx.calls };
}

describe('/stop', () => {
  it('interrupts the turn before stopping processes, and says both', async () => {
    const { result, calls } = await run('/stop', recordingContext({ busy: true, turnRunning: true, processes: 2 }));
    expect(calls).toEqual(['interrupt', 'stopProcesses']);
    expect(result.output).toBe('Interrupted the running turn (partial reply kept); stopped 2 background processes.');
  });

  it('reports each half on its own', async () => {
    expect((await run('/stop', recordingContext({ turnRunning: true }))).result.output).toBe(
      'Interrupted the running turn (partial reply kept); no background processes to stop.',
    );
    expect((await run('/stop', recordingContext({ processes: 1 }))).result.output).toBe(
      'No turn was running; stopped 1 background process.',
    );
    expect((await run('/stop')).result.output).toBe('Nothing to stop: no turn running, no background processes.');
  });
});

describe('session commands', () => {
  it('/new and /reset start a titled or untitled session; /clear also wipes the screen', async () => {
    expect(await run('/new Bug hunt')).toEqual({
      result: { output: 'Started a new session "Bug hunt".', directive: { type: 'new', session_id: 'sess-new', clear: false } },
      calls: ['newSession(Bug hunt)'],
    });
    expect((await run('/reset')).calls).toEqual(['newSession()']);
    expect((await run('/clear')).result.directive).toEqual({ type: 'new', session_id: 'sess-new', clear: true });
  });

  it('/retry resends the last message, or warns when there is none', async () => {
    expect((await run('/retry')).result).toEqual({ directive: { type: 'send', message: 'fix the tests' } });
    expect((await run('/retry', recordingContext({ lastPrompt: null }))).result.warning).toMatch(/Nothing to retry/);
  });

  it('/undo backs up N turns and prefills the prompt; rejects a bad N without calling undo', async () => {
    expect(await run('/undo 2')).toEqual({
      result: { output: 'Removed 2 turns.', directive: { type: 'prefill', text: 'earlier prompt' } },
      calls: ['undo(2)'],
    });
    expect((await run('/undo')).calls).toEqual(['undo(1)']);
    const bad = await run('/undo two');
    expect(bad.calls).toEqual([]);
    expect(bad.result.warning).toMatch(/whole number/);
    const nothing = recordingContext({ undo: () => ({ removed: 0, text: '' }) });
    expect((await run('/undo', nothing)).result).toEqual({ warning: 'Nothing to undo.' });
  });

  it('/title shows, then sets, the title', async () => {
    const ctx = recordingContext();
    expect((await run('/title', ctx)).result.output).toMatch(/no title/);
    expect((await run('/title Refactor auth', ctx)).result.output).toBe('Title set to "Refactor auth".');
    expect((await run('/title', ctx)).result.output).toBe('Title: Refactor auth');
  });

  it('/branch and /fork switch to the copy', async () => {
    expect(await run('/fork try-b')).toEqual({
      result: { output: 'Branched into "try-b" (sess-branch).', directive: { type: 'resume', session_id: 'sess-branch' } },
      calls: ['branch(try-b)'],
    });
  });

  it('/resume and /sessions hand switching to the client', async () => {
    expect((await run('/resume auth work')).result).toEqual({ directive: { type: 'resume', target: 'auth work' } });
    expect((await run('/resume')).result).toEqual({ directive: { type: 'picker', picker: 'sessions' } });
    expect((await run('/sessions')).result).toEqual({ directive: { type: 'picker', picker: 'sessions' } });
  });

  it('/compress and /compact report what they saved', async () => {
    expect(await run('/compact the parser')).toEqual({
      result: { output: 'Compressed 12 messages: 52,000 → 9,100 tokens.' },
      calls: ['compress(the parser)'],
    });
  });

  it('/save picks the format from a word or the file extension', async () => {
    expect((await run('/save')).calls).toEqual(['save(md,)']);
    expect((await run('/save JSON out')).calls).toEqual(['save(json,out)']);
    expect((await run('/save notes.html')).calls).toEqual(['save(html,notes.html)']);
    expect((await run('/save my notes')).result.output).toBe('Saved the conversation to /tmp/my notes.md.');
  });

  it('/history shows the history', async () => {
    expect(await run('/history')).toEqual({ result: { output: 'history text' }, calls: ['history'] });
  });
});

describe('configuration and info commands', () => {
  it('/model shows the model and opens the picker, or switches', async () => {
    expect((await run('/model')).result).toEqual({
      output: 'Model: openrouter/anthropic/claude',
      directive: { type: 'picker', picker: 'model' },
    });
    expect(await run('/model gpt-4o')).toEqual({ result: { output: 'Model set to gpt-4o.' }, calls: ['setModel(gpt-4o)'] });
    expect((await run('/model gpt-4o', recordingContext({ busy: true }))).result.output).toBe(
      'Model set to gpt-4o (from the next model call).',
    );
  });

  it('/yolo toggles and warns when switched on', async () => {
    const ctx = recordingContext();
    expect((await run('/yolo', ctx)).result.warning).toMatch(/YOLO on/);
    expect((await run('/yolo', ctx)).result.output).toMatch(/YOLO off/);
  });

  it('/approvals shows, sets, and rejects unknown modes', async () => {
    expect((await run('/approvals')).result.output).toBe('Approval mode: manual.');
    expect(await run('/approvals SMART')).toEqual({
      result: { output: 'Approval mode set to smart.' },
      calls: ['approvalsMode(smart)'],
    });
    const bad = await run('/approvals sometimes');
    expect(bad.calls).toEqual([]);
    expect(bad.result.warning).toBe('Unknown approval mode "sometimes": use one of manual, smart, off.');
  });

  it('/tools lists; other subcommands are refused with a pointer', async () => {
    expect((await run('/tools')).result.output).toBe('tools text');
    expect((await run('/tools list')).result.output).toBe('tools text');
    const disable = await run('/tools disable web');
    expect(disable.calls).toEqual([]);
    expect(disable.result.warning).toMatch(/only listing is supported/);
  });

  it.each([
    ['/toolsets', 'listToolsets', 'toolsets text'],
    ['/plugins', 'listPlugins', 'plugins text'],
    ['/skills', 'listSkills', 'skills text'],
    ['/reload-plugins', 'reloadPlugins', 'reloaded 2 plugins'],
    ['/usage', 'usage', 'usage text'],
    ['/status', 'status', 'status text'],
    ['/config', 'config()', 'config all'],
    ['/config model.provider', 'config(model.provider)', 'config model.provider'],
  ])('%s calls %s and shows its text', async (text, call, output) => {
    expect(await run(text)).toEqual({ result: { output }, calls: [call] });
  });

  it('/quit and /exit ask the client to exit', async () => {
    expect((await run('/quit')).result).toEqual({ exit: true });
    expect((await run('/exit')).result).toEqual({ exit: true });
  });
});
