/**
 * Every change to a live session goes through agent-core's SessionService and is followed by a
 * `session.info` with the current truth: the real backend over real pipes, the scripted model server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import { APPROVAL_MODES, ErrorCode, ParamLimit, type EventOf, type HermesEvent } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(options: { turns: Turn[]; config?: string; approve?: 'always'; env?: Record<string, string> }) {
  const server: ModelServer = await startModelServer({ turns: options.turns });
  cleanups.push(() => server.close());
  const home = tempDir('hermes-session-changes-');
  const backend = new BackendProcess({
    home,
    ...(options.config ? { config: options.config } : {}),
    ...(options.env ? { env: options.env } : {}),
    args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
  });
  cleanups.push(() => backend.stop());
  if (options.approve) backend.connection.onRequest('approval', () => ({ choice: options.approve }));
  return { server, backend, home };
}

type Info = NonNullable<EventOf<'session.info'>['payload']>;
const infos = (backend: BackendProcess, sid: string): Info[] =>
  backend.eventsOf(sid).filter((e): e is EventOf<'session.info'> => e.type === 'session.info').map((e) => e.payload as Info);

/** Waits for the next session.info of `sid` after the ones seen so far, and returns it. */
async function nextInfo(backend: BackendProcess, sid: string, seen: number, check: (info: Info) => boolean = () => true): Promise<Info> {
  await backend.waitForEvent(() => infos(backend, sid).slice(seen).some(check));
  return infos(backend, sid).slice(seen).find(check)!;
}

async function turn(backend: BackendProcess, sid: string, text: string): Promise<void> {
  const before = completes(backend, sid);
  await backend.request('prompt.submit', { session_id: sid, text });
  await backend.waitForEvent(() => completes(backend, sid) > before);
}
const completes = (backend: BackendProcess, sid: string) => backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length;

async function open(backend: BackendProcess, params: { model?: string; provider?: string; cwd?: string; title?: string } = {}) {
  const created = await backend.request('session.create', params);
  // The opening session.info follows the reply.
  await backend.waitForEvent((e) => e.session_id === created.session_id && e.type === 'session.info');
  return created;
}

/** Polls until `check` holds: a model request is no event, so waitForEvent cannot see it. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const slash = (backend: BackendProcess, sid: string, command: string) => backend.request('slash.exec', { session_id: sid, command });

describe('session changes over the wire', () => {
  it('/yolo sends session.info, and agrees with config.set yolo', async () => {
    const { backend } = await start({ turns: [{ text: 'ok' }] });
    const { session_id: sid } = await open(backend);
    let seen = infos(backend, sid).length;
    expect((await slash(backend, sid, '/yolo')).warning).toMatch(/YOLO on/);
    expect((await nextInfo(backend, sid, seen)).yolo).toBe(true);
    seen = infos(backend, sid).length;
    await backend.request('config.set', { key: 'yolo', value: false, session_id: sid });
    expect((await nextInfo(backend, sid, seen)).yolo).toBe(false);
    seen = infos(backend, sid).length;
    // The toggle reads the state config.set left: on again, not off.
    expect((await slash(backend, sid, '/yolo')).warning).toMatch(/YOLO on/);
    expect((await nextInfo(backend, sid, seen)).yolo).toBe(true);
  });

  it('/yolo on and /yolo off set that state whatever it was; other words are refused and change nothing', async () => {
    const { backend } = await start({ turns: [{ text: 'ok' }] });
    const { session_id: sid } = await open(backend);
    for (const [command, yolo] of [['/yolo on', true], ['/yolo ON', true], ['/yolo off', false], ['/yolo off', false]] as const) {
      const seen = infos(backend, sid).length;
      const result = await slash(backend, sid, command);
      expect(yolo ? result.warning : result.output).toMatch(yolo ? /YOLO on/ : /YOLO off/);
      expect((await nextInfo(backend, sid, seen)).yolo).toBe(yolo);
    }
    const seen = infos(backend, sid).length;
    expect((await slash(backend, sid, '/yolo maybe')).warning).toMatch(/\/yolo takes on or off/);
    expect((await slash(backend, sid, '/status')).output).not.toContain('YOLO');
    expect(infos(backend, sid).length).toBe(seen);
  });

  it('/model llama3:8b is that model on the current provider, shown at once when idle', async () => {
    const { backend } = await start({ turns: [{ text: 'ok' }] });
    const { session_id: sid } = await open(backend);
    const seen = infos(backend, sid).length;
    expect(await slash(backend, sid, '/model llama3:8b')).toEqual({ output: 'Model set to custom:llama3:8b.' });
    expect(await nextInfo(backend, sid, seen)).toMatchObject({ model: 'llama3:8b', provider: 'custom' });
    // config.set reads a model value the same way.
    expect(await backend.request('config.set', { key: 'model', value: 'llama3:70b', session_id: sid })).toEqual({ key: 'model', value: 'custom:llama3:70b' });
    await expect(backend.request('config.set', { key: 'model', value: '', session_id: sid })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    // A provider with no model after its colon names no model (it was taken as the model "openrouter:").
    await expect(backend.request('config.set', { key: 'model', value: 'ollama: ', session_id: sid })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const before = infos(backend, sid).length;
    expect((await slash(backend, sid, '/model openrouter:')).warning).toMatch(/^\/model failed: "openrouter:" is not a model/);
    expect((await slash(backend, sid, '/status')).output).toContain('model custom:llama3:70b');
    expect(infos(backend, sid).length).toBe(before);

    // A branch, by command or by method, goes on with the model its source was switched to.
    const byCommand = (await slash(backend, sid, '/branch')).directive;
    expect(byCommand?.type).toBe('resume');
    const branchId = byCommand?.type === 'resume' ? byCommand.session_id! : '';
    expect(await nextInfo(backend, branchId, 0)).toMatchObject({ model: 'llama3:70b', provider: 'custom' });
    expect((await backend.request('session.branch', { session_id: sid })).info).toMatchObject({ model: 'llama3:70b', provider: 'custom' });
  });

  it('switching to another provider goes to that provider, not to the --base-url of the one hermes started with', async () => {
    // A fake key: nothing is sent to OpenRouter (no turn runs); what matters is where it would go.
    const { backend, server } = await start({ turns: [{ text: 'ok' }], env: { OPENROUTER_API_KEY: 'sk-or-v1-0000000000000000000000000000000000000000' } });
    const { session_id: sid } = await open(backend);
    const seen = infos(backend, sid).length;
    expect(await slash(backend, sid, '/model openrouter:anthropic/claude-sonnet-4')).toEqual({ output: 'Model set to openrouter:anthropic/claude-sonnet-4.' });
    expect(await nextInfo(backend, sid, seen)).toMatchObject({ provider: 'openrouter', base_url: 'https://openrouter.ai/api/v1' });
    const ollama = await open(backend, { provider: 'ollama', model: 'llama3:8b' });
    expect(ollama.info).toMatchObject({ provider: 'ollama', base_url: 'http://127.0.0.1:11434/v1' });
    // The provider hermes started with keeps its --base-url.
    const seenAgain = infos(backend, sid).length;
    await backend.request('config.set', { key: 'model', value: 'custom:other-model', session_id: sid });
    expect(await nextInfo(backend, sid, seenAgain)).toMatchObject({ provider: 'custom', base_url: server.baseUrl });
  });

  it('/status after /model measures the context against the new model\'s window', async () => {
    const { backend } = await start({ turns: [{ text: 'hello', usage: { prompt_tokens: 100, completion_tokens: 5 } }] });
    const { session_id: sid } = await open(backend);
    await turn(backend, sid, 'hi');
    expect((await slash(backend, sid, '/status')).output).toContain('context 100/128000 (0.1%)');
    await slash(backend, sid, '/model llama3:8b');
    expect((await slash(backend, sid, '/status')).output).toContain('context 100/8192 (1.2%)');
    expect(await backend.request('session.usage', { session_id: sid })).toMatchObject({ model: 'llama3:8b', context_used: 100, context_max: 8192, context_percent: 1.2 });
  });

  it('/model during a turn: said once, and session.info carries the new model when the turn ends', async () => {
    const { backend } = await start({ turns: [{ text: 'slow reply', delay_ms: 1500 }, { text: 'second' }] });
    const { session_id: sid } = await open(backend);
    await backend.request('prompt.submit', { session_id: sid, text: 'hi' });
    await backend.waitForEvent((e) => e.session_id === sid && e.type === 'message.start');
    const seen = infos(backend, sid).length;
    const { output } = await slash(backend, sid, '/model next-model');
    expect(output).toBe('Model set to custom:next-model (from the next turn).');
    const info = await nextInfo(backend, sid, seen, (i) => i.model === 'next-model');
    const events = backend.eventsOf(sid);
    const completeAt = events.findIndex((e) => e.type === 'message.complete');
    expect(completeAt).toBeGreaterThanOrEqual(0);
    expect(events.indexOf(events.find((e) => e.type === 'session.info' && e.payload === info) as HermesEvent)).toBeGreaterThan(completeAt);
  });

  it('/config shows the allowlist an "always" approval wrote, and the model set by session.create', async () => {
    const target = tempDir('hermes-always-target-');
    const { backend } = await start({
      approve: 'always',
      turns: [{ tool_calls: [{ name: 'terminal', arguments: { command: `rm -rf ${path.join(target, 'x')}` } }] }, { text: 'done' }],
    });
    const { session_id: sid } = await open(backend, { model: 'flag-model' });
    expect((await slash(backend, sid, '/config command_allowlist')).output).toBe('command_allowlist is not set');
    await turn(backend, sid, 'clean up');
    const { output } = await slash(backend, sid, '/config command_allowlist');
    const { value } = await backend.request('config.get', { key: 'command_allowlist' });
    expect(value).toHaveLength(1);
    expect(output).toBe(`- ${(value as string[])[0]}`);
    expect((await slash(backend, sid, '/config model')).output).toContain('provider: custom\ndefault: flag-model');
  });

  it('session.create trims its title as session.title does', async () => {
    const { backend } = await start({ turns: [{ text: 'ok' }] });
    expect((await open(backend, { title: '  Plan  ' })).info.title).toBe('Plan');
    await expect(backend.request('session.create', { title: 'Plan ' })).rejects.toMatchObject({ code: ErrorCode.UsageError });
    const blank = await open(backend, { title: '   ' });
    expect(blank.info.title).toBeNull();
    expect(await backend.request('session.title', { session_id: blank.session_id })).toEqual({ title: null });
  });

  it('/title, /branch and /compress hold their arguments to the caps session.title, session.branch and session.compress have', async () => {
    const { backend } = await start({ turns: [{ text: 'ok' }] });
    const { session_id: sid } = await open(backend, { title: 'Kept' });
    const long = 'x'.repeat(ParamLimit.title + 1);
    expect(await slash(backend, sid, `/title ${long}`)).toEqual({ warning: `/title failed: A title is ${long.length} characters long; the limit is ${ParamLimit.title}.` });
    await expect(backend.request('session.title', { session_id: sid, title: long })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    expect(await backend.request('session.title', { session_id: sid })).toEqual({ title: 'Kept' });
    expect((await slash(backend, sid, `/branch ${long}`)).warning).toBe(`/branch failed: A branch name is ${long.length} characters long; the limit is ${ParamLimit.title}.`);
    const topic = 'y'.repeat(ParamLimit.answer + 1);
    expect((await slash(backend, sid, `/compress ${topic}`)).warning).toBe(`/compress failed: A focus topic is ${topic.length} characters long; the limit is ${ParamLimit.answer}.`);
    expect((await backend.request('session.list', {})).sessions).toHaveLength(1);
  });

  it('config.get and /config read only config keys, never a built-in property of an object', async () => {
    const { backend } = await start({ turns: [{ text: 'ok' }] });
    const { session_id: sid } = await open(backend);
    for (const key of ['constructor', '__proto__', 'toString', 'model.constructor', 'approvals.hasOwnProperty']) {
      expect(await backend.request('config.get', { key })).toEqual({ value: null });
      expect(await slash(backend, sid, `/config ${key}`)).toEqual({ output: `${key} is not set` });
    }
  });

  it('/status shows tokens, context and the stored id; /branch reports the same kind of id', async () => {
    const { backend } = await start({ turns: [{ text: 'hello', usage: { prompt_tokens: 1234, completion_tokens: 56 } }] });
    const created = await open(backend);
    const sid = created.session_id;
    await turn(backend, sid, 'hi');
    const status = (await slash(backend, sid, '/status')).output ?? '';
    expect(status).toContain(`session ${created.stored_session_id}`);
    expect(status).toMatch(/tokens 1234 in \/ 56 out \(1 calls\) · context 1234\/\d+ \(\d+(\.\d+)?%\)/);

    const branched = await slash(backend, sid, '/branch try-b');
    expect(branched.directive).toMatchObject({ type: 'resume' });
    const wireId = (branched.directive as { session_id: string }).session_id;
    await backend.waitForEvent((e) => e.session_id === wireId && e.type === 'session.info');
    const storedId = infos(backend, wireId)[0]!.stored_session_id;
    expect(branched.output).toBe(`Branched into "try-b" (${storedId}).`);
    expect((await slash(backend, wireId, '/status')).output).toContain(`session ${storedId} "try-b"`);
  });

  it('compress holds the running slot both ways, and session.interrupt stops it', async () => {
    const long = (word: string) => `${word} `.repeat(400);
    const { server, backend } = await start({
      // A small window, so three long exchanges leave a middle to summarize; only compress compresses.
      config: 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n',
      turns: [{ text: long('a'), delay_ms: 1000 }, { text: long('b') }, { text: long('c') }, { text: 'summary', delay_ms: 30_000 }, { text: 'after' }],
    });
    const { session_id: sid } = await open(backend);
    await backend.request('prompt.submit', { session_id: sid, text: long('one') });
    await backend.waitForEvent((e) => e.session_id === sid && e.type === 'message.start');
    await expect(backend.request('session.compress', { session_id: sid })).rejects.toMatchObject({ code: ErrorCode.SessionBusy });
    await backend.waitForEvent(() => completes(backend, sid) === 1);
    await turn(backend, sid, long('two'));
    await turn(backend, sid, long('three'));

    const compressing = backend.request('session.compress', { session_id: sid });
    const outcome = compressing.then(
      () => 'finished',
      (error: unknown) => error,
    );
    await until(() => server.requests.length === 4, 'the summary call');
    await expect(backend.request('prompt.submit', { session_id: sid, text: 'four' })).rejects.toMatchObject({ code: ErrorCode.SessionBusy });
    await expect(slash(backend, sid, '/compress')).rejects.toMatchObject({ code: ErrorCode.SessionBusy });
    await expect(backend.request('session.branch', { session_id: sid })).rejects.toMatchObject({ code: ErrorCode.SessionBusy });
    expect(await backend.request('session.interrupt', { session_id: sid })).toEqual({ status: 'interrupted' });
    expect(await outcome).toMatchObject({ code: ErrorCode.UsageError, message: expect.stringMatching(/interrupted/i) });
    await turn(backend, sid, 'four');
    expect((backend.eventsOf(sid).filter((e) => e.type === 'message.complete').at(-1) as EventOf<'message.complete'>).payload?.text).toBe('after');
  });

  it('/status after a compress counts the summary call and shows the context it left', async () => {
    const long = (word: string) => `${word} `.repeat(400);
    const used = { prompt_tokens: 1900, completion_tokens: 400 };
    const { backend } = await start({
      config: 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n',
      turns: [{ text: long('a'), usage: used }, { text: long('b'), usage: used }, { text: long('c'), usage: used }, { text: 'summary', usage: { prompt_tokens: 1000, completion_tokens: 10 } }],
    });
    const { session_id: sid } = await open(backend);
    for (const word of ['one', 'two', 'three']) await turn(backend, sid, long(word));
    expect((await slash(backend, sid, '/status')).output).toContain('tokens 5700 in / 1200 out (3 calls) · context 1900/2000 (95%)');
    const seen = infos(backend, sid).length;
    const compressed = await backend.request('session.compress', { session_id: sid });
    expect(compressed.removed).toBeGreaterThan(0);
    const percent = Math.min(100, Math.round((compressed.after_tokens / 2000) * 1000) / 10);
    expect((await slash(backend, sid, '/status')).output).toContain(`tokens 6700 in / 1210 out (4 calls) · context ${compressed.after_tokens}/2000 (${percent}%)`);
    expect((await nextInfo(backend, sid, seen)).usage).toMatchObject({ input: 6700, output: 1210, calls: 4, context_used: compressed.after_tokens });
    expect(await backend.request('session.usage', { session_id: sid })).toMatchObject({ input: 6700, calls: 4, context_used: compressed.after_tokens });
  });

  it('a compress whose summary call fails says so (5032), never "nothing to compress"', async () => {
    const long = (word: string) => `${word} `.repeat(400);
    const { backend } = await start({
      config: 'model:\n  context_length: 2000\ncompression:\n  enabled: false\n',
      turns: [{ text: long('a') }, { text: long('b') }, { text: long('c') }, { error: { status: 500, message: 'summary backend down' } }, { error: { status: 500, message: 'summary backend down' } }, { text: 'after' }],
    });
    const { session_id: sid } = await open(backend);
    for (const word of ['one', 'two', 'three']) await turn(backend, sid, long(word));
    await expect(backend.request('session.compress', { session_id: sid })).rejects.toMatchObject({ code: ErrorCode.AgentUnavailable, message: expect.stringMatching(/HTTP 500: summary backend down/) });
    expect(await slash(backend, sid, '/compress')).toEqual({ warning: expect.stringMatching(/^\/compress failed: .*HTTP 500: summary backend down/) });
    await turn(backend, sid, 'four');
    expect((backend.eventsOf(sid).filter((e) => e.type === 'message.complete').at(-1) as EventOf<'message.complete'>).payload?.text).toBe('after');
  });

  it('/approvals shows the mode and sets exactly the modes that exist, in config.yaml and session.info', async () => {
    const { backend, home } = await start({ turns: [{ text: 'ok' }] });
    const { session_id: sid } = await open(backend);
    const { session_id: other } = await open(backend);
    const otherSeen = infos(backend, other).length;
    expect(await slash(backend, sid, '/approvals')).toEqual({ output: `Approval mode: manual (one of ${APPROVAL_MODES.join(', ')}).` });
    const seen = infos(backend, sid).length;
    expect(await slash(backend, sid, '/approvals off')).toEqual({ output: 'Approval mode set to off (saved to config.yaml).' });
    expect((await nextInfo(backend, sid, seen)).approval_mode).toBe('off');
    // The mode is every session's: the other open one reports it too.
    expect((await nextInfo(backend, other, otherSeen)).approval_mode).toBe('off');
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toMatch(/approvals:\s*\n\s*mode: off/);
    expect((await backend.request('config.get', { key: 'approvals.mode' })).value).toBe('off');
    const refused = await slash(backend, sid, '/approvals sometimes');
    expect(refused.warning).toBe(`/approvals failed: Unknown approval mode "sometimes": use one of ${APPROVAL_MODES.join(', ')}.`);
    const catalog = await backend.request('commands.catalog', {});
    expect(catalog.commands.find((c) => c.name === 'approvals')?.args_hint).toBe(`[${APPROVAL_MODES.join('|')}]`);

    // config.set needs no session for a setting that is every session's; all open ones are told.
    const before = [infos(backend, sid).length, infos(backend, other).length] as const;
    expect(await backend.request('config.set', { key: 'approvals.mode', value: ' Manual ' })).toEqual({ key: 'approvals.mode', value: 'manual' });
    expect((await nextInfo(backend, sid, before[0])).approval_mode).toBe('manual');
    expect((await nextInfo(backend, other, before[1])).approval_mode).toBe('manual');
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toMatch(/approvals:\s*\n\s*mode: manual/);
    await expect(backend.request('config.set', { key: 'approvals.mode', value: 'sometimes' })).rejects.toMatchObject({ code: ErrorCode.UsageError });
    await expect(backend.request('config.set', { key: 'approvals.mode', value: 'off', session_id: 'ghost' })).rejects.toMatchObject({ code: ErrorCode.SessionNotFound });
  });

  it('/save and session.export are one exporter', async () => {
    const { backend, home } = await start({ turns: [{ text: 'exported reply' }] });
    const created = await open(backend, { cwd: home });
    await turn(backend, created.session_id, 'export this');
    expect((await slash(backend, created.session_id, '/save md out.md')).output).toBe(`Saved the conversation to ${path.join(home, 'out.md')}.`);
    const saved = fs.readFileSync(path.join(home, 'out.md'), 'utf8');
    expect(saved).toContain('## User\n\nexport this\n\n## Assistant\n\nexported reply');
    expect(await backend.request('session.export', { session_id: created.session_id, format: 'md' })).toEqual({ format: 'md', text: saved });
    await backend.request('session.close', { session_id: created.session_id });
    // Not open: read from the store by its stored id, as `hermes sessions export` does.
    const json = await backend.request('session.export', { session_id: created.stored_session_id, format: 'json' });
    expect(JSON.parse(json.text)).toMatchObject({ session: { id: created.stored_session_id }, messages: [{ text: 'export this' }, { text: 'exported reply' }] });
    await expect(backend.request('session.export', { session_id: 'no-such', format: 'md' })).rejects.toMatchObject({ code: ErrorCode.SessionNotFound });
  });
});
