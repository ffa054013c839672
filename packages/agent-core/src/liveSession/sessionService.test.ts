/** The session service against the real runtime, store and scripted model server. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionBusyError } from '../agent/agentErrors.ts';
import { configText, liveSessionRig, type LiveSessionRig } from '../testing/liveSessionRig.ts';
import { ApprovalModeError, CompressInterruptedError, ModelValueError } from './sessionErrors.ts';
import { APPROVAL_MODES } from '../contract/approvalNames.ts';
import { parseModelValue } from './modelValue.ts';

let rig: LiveSessionRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const last = <T>(list: T[]): T | undefined => list[list.length - 1];

/** Resolves once `check` holds, polling the event loop (no fixed sleeps). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('parseModelValue (the one model-value reading)', () => {
  it('splits at the colon only for a provider preset', () => {
    expect(parseModelValue('llama3:8b')).toEqual({ model: 'llama3:8b' });
    expect(parseModelValue('openrouter:anthropic/claude-sonnet-4')).toEqual({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4' });
    expect(parseModelValue(' gpt-4o ')).toEqual({ model: 'gpt-4o' });
    expect(parseModelValue({ provider: 'ollama', model: 'qwen3', base_url: 'http://h/v1' })).toEqual({ provider: 'ollama', model: 'qwen3', baseUrl: 'http://h/v1' });
    expect(parseModelValue('')).toBeNull();
    expect(parseModelValue(42)).toBeNull();
  });
});

describe('SessionService', () => {
  it('a resumed session goes on counting its cost from what it cost before', async () => {
    rig = await liveSessionRig({
      config: 'model:\n  input_cost_per_million: 1000000\n  output_cost_per_million: 0\n',
      script: { loop: true, turns: [{ text: 'ok', usage: { prompt_tokens: 2, completion_tokens: 1 } }] },
    });
    await rig.service.agent.submit('hello');
    expect(rig.service.agent.usage.cost_usd).toBe(2);
    const stored = rig.runtime.store.getSession(rig.service.id)!;
    const resumed = rig.runtime.openSession({ cwd: rig.home, emit: () => {}, resume: stored });
    try {
      expect(resumed.usage.cost_usd).toBe(2);
      await resumed.submit('again');
      expect(resumed.usage.cost_usd).toBe(4);
    } finally {
      await resumed.close();
    }
  });

  it('counts the background commands the terminal tool started in session.info, as each starts and ends', async () => {
    rig = await liveSessionRig({
      script: {
        turns: [
          { tool_calls: [{ id: 'c1', name: 'terminal', arguments: { command: 'sleep 30', background: true } }] },
          { tool_calls: [{ id: 'c2', name: 'terminal', arguments: { command: 'sleep 0.2', background: true } }] },
          { text: 'started' },
        ],
      },
    });
    const counts = () => rig!.infos().map((info) => info.background_tasks ?? 0);
    await rig.service.agent.submit('start two');
    await until(() => last(counts()) === 1 && counts().includes(2), 'the short command to end');
    expect(counts()).toEqual([1, 2, 1]);
    expect(rig.service.stopProcesses()).toBe(1);
    expect(counts()).toEqual([1, 2, 1, 0]);
    expect(last(rig.infos())).not.toHaveProperty('background_tasks');
  });

  it('yolo changes send session.info with the new state', async () => {
    rig = await liveSessionRig();
    expect(rig.service.toggleYolo()).toBe(true);
    expect(last(rig.infos())?.yolo).toBe(true);
    rig.service.setYolo(false);
    expect(last(rig.infos())?.yolo).toBe(false);
    expect(rig.infos()).toHaveLength(2);
  });

  it('a model switch when idle shows at once; "llama3:8b" stays on the current provider, "ollama:x" switches', async () => {
    rig = await liveSessionRig();
    expect(rig.service.setModel('llama3:8b')).toEqual({ value: 'custom:llama3:8b', deferred: false });
    expect(last(rig.infos())).toMatchObject({ model: 'llama3:8b', provider: 'custom' });
    expect(rig.service.setModel('ollama:qwen3')).toEqual({ value: 'ollama:qwen3', deferred: false });
    expect(last(rig.infos())).toMatchObject({ model: 'qwen3', provider: 'ollama' });
    expect(rig.service.overrides).toEqual({ provider: 'ollama', model: 'qwen3' });
    expect(() => rig!.service.setModel('  ')).toThrow(ModelValueError);
  });

  it('a model switch during a turn takes effect, and is reported, when the turn ends', async () => {
    rig = await liveSessionRig({ script: { loop: true, turns: [{ text: 'slow reply', delay_ms: 300 }] } });
    const turn = rig.service.agent.submit('hello');
    expect(rig.service.setModel('other-model')).toEqual({ value: 'custom:other-model', deferred: true });
    expect(rig.infos().some((i) => i.model === 'other-model')).toBe(false);
    await turn;
    await until(() => last(rig!.infos())?.model === 'other-model', 'session.info with the new model');
    expect(rig.service.modelLabel).toBe('custom:other-model');
  });

  it('sets the approval mode for real: config.yaml, the runtime, session.info; only modes that exist', async () => {
    rig = await liveSessionRig({ config: '# my settings\nagent:\n  max_turns: 7\n' });
    expect(rig.service.approvalModes).toEqual(APPROVAL_MODES);
    expect(rig.service.setApprovalMode('OFF')).toBe('off');
    expect(configText(rig)).toMatch(/approvals:\s*\n\s*mode: off/);
    expect(configText(rig)).toContain('# my settings');
    expect(rig.runtime.approvalMode).toBe('off');
    expect(last(rig.infos())?.approval_mode).toBe('off');
    expect(() => rig!.service.setApprovalMode('sometimes')).toThrow(new ApprovalModeError('sometimes', APPROVAL_MODES));
    expect(rig.runtime.approvalMode).toBe('off');
  });

  it('config() reads live state: what hermes wrote since start, the session model set by flags', async () => {
    rig = await liveSessionRig({ overrides: { model: 'flag-model' } });
    rig.runtime.appendConfig('command_allowlist', 'shell.rm_recursive@/tmp/x');
    expect(rig.service.config('command_allowlist')).toBe('- shell.rm_recursive@/tmp/x');
    expect(rig.service.config('model.default')).toBe('flag-model');
    expect(rig.service.config('model.provider')).toBe('custom');
    expect(rig.service.config('nothing.here')).toBe('nothing.here is not set');
  });

  it('status shows the stored id, tokens and context; title, undo and retry each report session.info', async () => {
    rig = await liveSessionRig({ script: { loop: true, turns: [{ text: 'hi', usage: { prompt_tokens: 1200, completion_tokens: 30 } }] } });
    const { service } = rig;
    expect(service.status()).toContain(`session ${service.id}`);
    expect(service.status()).toMatch(/tokens 0 in \/ 0 out \(0 calls\) · context 0\/\d+ \(0%\)/);
    await service.agent.submit('first');
    expect(service.status()).toMatch(/tokens 1200 in \/ 30 out \(1 calls\) · context 1200\/\d+ \(\d+(\.\d)?%\)/);
    const before = rig.infos().length;
    expect(service.setTitle('  Bug hunt ')).toBe('Bug hunt');
    expect(last(rig.infos())?.title).toBe('Bug hunt');
    expect(rig.events.some((e) => e.type === 'session.title' && e.payload.title === 'Bug hunt')).toBe(true);
    expect(service.retry()).toBe('first');
    expect(service.undo(1)).toEqual({ removed: 0, text: '' });
    expect(rig.infos().length).toBe(before + 2);
  });

  it('compress holds the running slot; an interrupt stops its model call and leaves the session usable', async () => {
    // A small window, so three long exchanges leave a middle to summarize; only /compress compresses.
    const config = 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n';
    const long = (word: string) => `${word} `.repeat(400);
    rig = await liveSessionRig({
      config,
      script: { turns: [{ text: long('a') }, { text: long('b') }, { text: long('c') }, { text: 'summary', delay_ms: 10_000 }, { text: 'after' }] },
    });
    const { service } = rig;
    for (const prompt of ['one', 'two', 'three']) await service.agent.submit(long(prompt));
    const compressing = service.compress();
    await until(() => rig!.server.requests.length === 4, 'the summary call');
    expect(() => service.agent.submit('four')).toThrow(SessionBusyError);
    await expect(service.compress()).rejects.toThrow(SessionBusyError);
    expect(service.interrupt()).toBe('compress');
    await expect(compressing).rejects.toThrow(CompressInterruptedError);
    expect(service.busy).toBe(false);
    expect((await service.agent.submit('four')).text).toBe('after');
  });

  it('closing the session during compress stops it and closes cleanly', async () => {
    const long = (word: string) => `${word} `.repeat(400);
    rig = await liveSessionRig({
      config: 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n',
      script: { turns: [{ text: long('a') }, { text: long('b') }, { text: long('c') }, { text: 'summary', delay_ms: 30_000 }] },
    });
    const { service } = rig;
    for (const prompt of ['one', 'two', 'three']) await service.agent.submit(long(prompt));
    const compressing = service.compress().catch((error: unknown) => error);
    await until(() => rig!.server.requests.length === 4, 'the summary call');
    await expect(service.close()).resolves.toBeUndefined();
    expect(await compressing).toBeInstanceOf(CompressInterruptedError);
  });

  it('exports Markdown, JSON and HTML through the one exporter', async () => {
    rig = await liveSessionRig();
    await rig.service.agent.submit('export me');
    const md = fs.readFileSync(rig.service.export('md'), 'utf8');
    expect(md).toContain('## User\n\nexport me');
    expect(md).toContain(`- Session: \`${rig.service.id}\``);
    const json = JSON.parse(fs.readFileSync(rig.service.export('json', 'out.json'), 'utf8')) as { messages: { text: string }[] };
    expect(json.messages.map((m) => m.text)).toEqual(['export me', 'ok']);
    const html = rig.service.export('html', 'page.html');
    expect(path.basename(html)).toBe('page.html');
    expect(fs.readFileSync(html, 'utf8')).toContain('<pre># export me');
  });
});
