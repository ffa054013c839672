/** Built-in commands against a real session service (real runtime, SQLite store, scripted model server). */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_MODES } from '../../contract/approvalNames.ts';
import { configText, liveSessionRig, type LiveSessionRig } from '../../testing/liveSessionRig.ts';
import { CommandFailedError } from '../commandErrors.ts';
import { CommandRegistry } from '../commandRegistry.ts';
import { recordingHost, type RecordingHost } from '../commandTestUtil.ts';
import { registerBuiltinCommands } from './index.ts';

const registry = new CommandRegistry();
registerBuiltinCommands(registry);

let rig: LiveSessionRig | null = null;
let host: RecordingHost = recordingHost();
afterEach(async () => {
  await rig?.close();
  rig = null;
  host = recordingHost();
});

async function open(options: Parameters<typeof liveSessionRig>[0] = {}): Promise<LiveSessionRig> {
  rig = await liveSessionRig(options);
  return rig;
}

const run = (text: string) => registry.dispatch(text, { session: rig!.service, host });
const lastInfo = () => rig!.infos().at(-1);

describe('/stop', () => {
  it('interrupts the running turn, and says what it stopped', async () => {
    await open({ script: { loop: true, turns: [{ text: 'slow', delay_ms: 5000 }] } });
    const turn = rig!.service.agent.submit('hi');
    expect((await run('/stop')).output).toBe('Interrupted the running turn (partial reply kept); no background processes to stop.');
    expect((await turn).status).toBe('interrupted');
    expect((await run('/stop')).output).toBe('Nothing to stop: no turn running, no background processes.');
  });

  it('stops a running /compress too; the session is usable after', async () => {
    const long = (word: string) => `${word} `.repeat(400);
    await open({
      config: 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n',
      script: { turns: [{ text: long('a') }, { text: long('b') }, { text: long('c') }, { text: 'summary', delay_ms: 30_000 }, { text: 'after' }] },
    });
    for (const prompt of ['one', 'two', 'three']) await rig!.service.agent.submit(long(prompt));
    const compressing = run('/compress').catch((error: unknown) => error);
    while (rig!.server.requests.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await run('/stop')).output).toMatch(/^Stopped the compression \(the conversation is unchanged\); /);
    expect(((await compressing) as Error).message).toBe('/compress failed: Compression interrupted: the conversation was left as it was.');
    expect((await rig!.service.agent.submit('four')).text).toBe('after');
  });
});

describe('session commands', () => {
  it('/new, /reset and /clear ask the host for a session; /clear also wipes the screen', async () => {
    await open();
    expect(await run('/new Bug hunt')).toEqual({
      output: 'Started a new session "Bug hunt".',
      directive: { type: 'new', session_id: 'wire-new', clear: false },
    });
    await run('/reset');
    expect((await run('/clear')).directive).toEqual({ type: 'new', session_id: 'wire-new', clear: true });
    expect(host.calls).toEqual(['newSession(Bug hunt)', 'newSession()', 'newSession()']);
  });

  it('/retry takes back the last exchange and resends its prompt, or warns when there is none', async () => {
    await open();
    expect((await run('/retry')).warning).toMatch(/Nothing to retry/);
    await rig!.service.agent.submit('fix the tests');
    expect(await run('/retry')).toEqual({ directive: { type: 'send', message: 'fix the tests' } });
    expect(rig!.service.agent.history()).toEqual([]);
  });

  it('/undo backs up N turns and prefills the earliest prompt; rejects a bad N', async () => {
    await open();
    for (const prompt of ['one', 'two', 'three']) await rig!.service.agent.submit(prompt);
    expect(await run('/undo 2')).toEqual({ output: 'Removed 2 turns.', directive: { type: 'prefill', text: 'two' } });
    expect(rig!.service.agent.history().map((m) => m.content)).toEqual(['one', 'ok']);
    expect((await run('/undo two')).warning).toMatch(/whole number/);
    expect(await run('/undo')).toEqual({ output: 'Removed 1 turn.', directive: { type: 'prefill', text: 'one' } });
    expect(await run('/undo')).toEqual({ warning: 'Nothing to undo.' });
  });

  it('/title shows, then sets, the title; session.info carries it', async () => {
    await open();
    expect((await run('/title')).output).toMatch(/no title/);
    expect((await run('/title Refactor auth')).output).toBe('Title set to "Refactor auth".');
    expect((await run('/title')).output).toBe('Title: Refactor auth');
    expect(lastInfo()?.title).toBe('Refactor auth');
  });

  it('/branch and /fork report the stored id of the copy and switch to it', async () => {
    await open();
    await rig!.service.agent.submit('hello');
    const result = await run('/fork try-b');
    const branched = rig!.runtime.store.findSession('try-b')!;
    expect(branched.parent_session_id).toBe(rig!.service.id);
    expect(result).toEqual({ output: `Branched into "try-b" (${branched.id}).`, directive: { type: 'resume', session_id: 'wire-branch' } });
    expect(host.calls).toEqual([`openBranch(try-b,${rig!.service.id})`]);
  });

  it('/resume and /sessions hand switching to the client', async () => {
    await open();
    expect(await run('/resume auth work')).toEqual({ directive: { type: 'resume', target: 'auth work' } });
    expect(await run('/resume')).toEqual({ directive: { type: 'picker', picker: 'sessions' } });
    expect(await run('/sessions')).toEqual({ directive: { type: 'picker', picker: 'sessions' } });
  });

  it('/compress and /compact report what they saved, or that there was nothing', async () => {
    const long = (word: string) => `${word} `.repeat(400);
    await open({
      config: 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n',
      script: { turns: [{ text: long('a') }, { text: long('b') }, { text: long('c') }, { text: 'the summary' }] },
    });
    expect(await run('/compact the parser')).toEqual({ output: 'Nothing to compress yet.' });
    for (const prompt of ['one', 'two', 'three']) await rig!.service.agent.submit(long(prompt));
    const infos = rig!.infos().length;
    const { output } = await run('/compress the parser');
    const saved = /^Compressed (\d+) messages?: ([\d,]+) → ([\d,]+) tokens\.$/.exec(output ?? '');
    expect(saved, output).not.toBeNull();
    const [removed, from, to] = saved!.slice(1).map((n) => Number(n.replaceAll(',', '')));
    expect(removed).toBeGreaterThan(0);
    expect(to).toBeLessThan(from!);
    // The focus topic reached the summary call; the change is reported with session.info.
    expect(JSON.stringify(rig!.server.requests.at(-1)!.body)).toContain('the parser');
    expect(rig!.infos()).toHaveLength(infos + 1);
  });

  it('/save picks the format from a word or the file extension, in the session cwd', async () => {
    await open();
    await rig!.service.agent.submit('save me');
    expect((await run('/save')).output).toBe(`Saved the conversation to ${path.join(rig!.home, `hermes-${rig!.service.id}.md`)}.`);
    expect((await run('/save JSON out')).output).toBe(`Saved the conversation to ${path.join(rig!.home, 'out')}.`);
    expect(JSON.parse(fs.readFileSync(path.join(rig!.home, 'out'), 'utf8')).messages).toHaveLength(2);
    await run('/save notes.html');
    expect(fs.readFileSync(path.join(rig!.home, 'notes.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('/history shows the conversation', async () => {
    await open();
    expect((await run('/history')).output).toBe('(no messages yet)');
    await rig!.service.agent.submit('hello');
    expect((await run('/history')).output).toBe('[user]\nhello\n\n[assistant]\nok');
  });
});

describe('configuration and info commands', () => {
  it('/model shows the model and opens the picker, or switches on the current provider', async () => {
    await open();
    expect(await run('/model')).toEqual({ output: 'Model: custom:scripted-model', directive: { type: 'picker', picker: 'model' } });
    expect(await run('/model llama3:8b')).toEqual({ output: 'Model set to custom:llama3:8b.' });
    expect(lastInfo()).toMatchObject({ model: 'llama3:8b', provider: 'custom' });
  });

  it('/model during a turn says "(from the next turn)" once', async () => {
    await open({ script: { loop: true, turns: [{ text: 'slow', delay_ms: 300 }] } });
    const turn = rig!.service.agent.submit('hi');
    expect((await run('/model gpt-4o')).output).toBe('Model set to custom:gpt-4o (from the next turn).');
    await turn;
  });

  it('/yolo toggles, warns when switched on, and sends session.info each time', async () => {
    await open();
    expect((await run('/yolo')).warning).toMatch(/YOLO on/);
    expect(lastInfo()?.yolo).toBe(true);
    expect((await run('/yolo')).output).toMatch(/YOLO off/);
    expect(lastInfo()?.yolo).toBe(false);
  });

  it('/approvals shows the mode, sets one that exists (config.yaml too), refuses the rest', async () => {
    await open();
    expect(await run('/approvals')).toEqual({ output: `Approval mode: manual (one of ${APPROVAL_MODES.join(', ')}).` });
    expect(await run('/approvals OFF')).toEqual({ output: 'Approval mode set to off (saved to config.yaml).' });
    expect(configText(rig!)).toMatch(/mode: off/);
    expect(lastInfo()?.approval_mode).toBe('off');
    const bad = await run('/approvals sometimes').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(CommandFailedError);
    expect((bad as Error).message).toBe(`/approvals failed: Unknown approval mode "sometimes": use one of ${APPROVAL_MODES.join(', ')}.`);
    expect(registry.resolve('approvals')?.argsHint).toBe(`[${APPROVAL_MODES.join('|')}]`);
  });

  it('/tools lists; other subcommands are refused with a pointer', async () => {
    await open();
    expect((await run('/tools')).output).toBe('tools text');
    expect((await run('/tools list')).output).toBe('tools text');
    expect((await run('/tools disable web')).warning).toMatch(/only listing is supported/);
    expect(host.calls).toEqual(['listTools', 'listTools']);
  });

  it.each([
    ['/toolsets', 'listToolsets', 'toolsets text'],
    ['/plugins', 'listPlugins', 'plugins text'],
    ['/skills', 'listSkills', 'skills text'],
    ['/reload-plugins', 'reloadPlugins', 'reloaded 2 plugins'],
  ])('%s asks the host (%s)', async (text, call, output) => {
    await open();
    expect(await run(text)).toEqual({ output });
    expect(host.calls).toEqual([call]);
  });

  it('/usage, /status and /config read the live session', async () => {
    await open({ overrides: { model: 'flag-model' } });
    expect((await run('/usage')).output).toMatch(/^flag-model: 0 calls, 0 in \/ 0 out tokens, context 0\/\d+ \(0%\)$/);
    expect((await run('/status')).output).toContain(`session ${rig!.service.id}`);
    expect((await run('/config model.default')).output).toBe('flag-model');
  });

  it('/quit and /exit ask the client to exit', async () => {
    await open();
    expect(await run('/quit')).toEqual({ exit: true });
    expect(await run('/exit')).toEqual({ exit: true });
  });
});
