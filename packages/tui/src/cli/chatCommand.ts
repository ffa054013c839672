/**
 * `hermes chat -q "…"`: one turn through the same backend, without the TUI. Prints the answer (or,
 * with --json, every event as NDJSON) on stdout, tool activity and errors on stderr. Nobody can be
 * asked, so approvals are denied unless --yolo, and clarify questions go unanswered.
 */
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import type { Logger } from '../logging/logger.ts';
import { backendCommand, type BackendOptions } from '../rpc/backendCommand.ts';
import { continueHint } from '../app/restartBudget.ts';
import { BackendProcess, describeExit } from '../rpc/backendProcess.ts';
import { CommandFailure, reportConfigProblems, reportFailure } from './withBackend.ts';

export interface ChatOptions {
  prompt: string;
  json: boolean;
  yolo: boolean;
  backend: BackendOptions;
  cwd: string;
  /** `--resume <id|title>` / `-c`: the turn continues a stored session instead of starting one. */
  resume?: string;
  continueLatest?: boolean;
}

export interface ChatIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Exit codes: 0 answered, 1 failed, 2 no model configured, 130 interrupted (Ctrl+C). */
export async function runChat(options: ChatOptions, io: ChatIo, logger: Logger): Promise<number> {
  const backend = new BackendProcess(backendCommand(options.backend), logger);
  const client = backend.client;
  client.handlePrompts({
    approval: async () => ({ choice: 'deny' }),
    clarify: async () => ({ answer: '' }),
  });
  let onSigint: (() => void) | undefined;
  try {
    reportConfigProblems(await backend.waitReady(), io);
    const session = await openChatSession(client, options);
    const sid = session.session_id;
    if (session.info.setup_hint) {
      // The config problems in the hint are on stderr already.
      const printed = new Set(session.info.config_problems?.map((p) => p.text));
      io.stderr.write(`hermes: ${session.info.setup_hint.split('\n').filter((line) => !printed.has(line)).join('\n')}\n`);
      return 2;
    }
    if (options.yolo) await client.request('config.set', { key: 'yolo', value: true, session_id: sid });
    // The output ends with the turn's message.complete: events the backend sends after it (an
    // automatic title, say) would make the stream's end depend on timing.
    let complete = false;
    const finished = new Promise<HermesEvent & { type: 'message.complete' }>((resolve) => {
      client.onEvent((event) => {
        if (complete || (event.session_id !== sid && !event.type.startsWith('gateway.'))) return;
        if (event.type === 'message.complete') complete = true;
        if (options.json) io.stdout.write(`${JSON.stringify(event)}\n`);
        else describeProgress(event, io.stderr);
        if (event.type === 'message.complete') resolve(event);
      });
    });
    onSigint = () => void client.request('session.interrupt', { session_id: sid }).catch(() => undefined);
    process.on('SIGINT', onSigint);
    // A backend that dies mid-turn sends no message.complete: without this the command would end with 0.
    const died = new Promise<never>((_, reject) =>
      backend.onExit((exit) => reject(new Error(`${describeExit(exit, 'before the turn finished')}. ${continueHint(session.info.stored_session_id)}`))),
    );
    died.catch(() => undefined);
    await Promise.race([client.request('prompt.submit', { session_id: sid, text: options.prompt }), died]);
    const done = await Promise.race([finished, died]);
    const payload = done.payload;
    if (!options.json && payload.text) io.stdout.write(payload.text.endsWith('\n') ? payload.text : `${payload.text}\n`);
    if (payload.status === 'error') {
      io.stderr.write(`hermes: ${payload.error ?? 'the turn failed'}\n`);
      return 1;
    }
    return payload.status === 'interrupted' ? 130 : 0;
  } catch (error) {
    reportFailure('hermes', error, backend, io);
    return 1;
  } finally {
    if (onSigint) process.off('SIGINT', onSigint);
    await backend.shutdown(2_000);
  }
}

/** A new session, or the stored one `--resume`/`-c` names (it keeps its own cwd). */
async function openChatSession(client: BackendProcess['client'], options: ChatOptions) {
  if (options.resume !== undefined) return client.request('session.resume', { session_id: options.resume.trim() });
  if (!options.continueLatest) return client.request('session.create', { cwd: options.cwd });
  const [latest] = (await client.request('session.list', { limit: 1 })).sessions;
  if (!latest) throw new CommandFailure('there is no saved session to continue; run without -c to start one.', 1);
  return client.request('session.resume', { session_id: latest.id });
}

/** One line on stderr per tool call and status, so a person watching sees progress. */
function describeProgress(event: HermesEvent, stderr: NodeJS.WritableStream): void {
  if (event.type === 'tool.start') stderr.write(`… ${event.payload.name} ${event.payload.context}\n`);
  else if (event.type === 'tool.complete') {
    const p = event.payload;
    // A call the interrupt cut off did not finish: never ✓, even when it returned its partial output.
    const mark = p.blocked ? '⊘ blocked' : p.interrupted ? '⊘ interrupted' : p.error ? '✗' : '✓';
    stderr.write(`${mark} ${p.name} (${p.duration_s.toFixed(2)} s)\n`);
  } else if (event.type === 'status.update') stderr.write(`[${event.payload.kind}] ${event.payload.text}\n`);
}
