/**
 * Opening, switching and editing sessions: the startup choice (`--resume`, `--continue`), the picker's
 * resume, and the local slash commands (/undo, /branch, /title, /new).
 */
import { ErrorCode, type SessionOpenResult } from '@hermes/rpc-server/protocol';
import { firstLine, unknownCommandNotice, type ParsedSlash } from '../commands/localCommands.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import type { NoticeLevel } from '../state/viewState.ts';
import { PickerController } from './pickerController.ts';
import { errorCode, errorMessage } from './rpcErrors.ts';
import type { SessionHost, StartupSession } from './sessionHost.ts';

export interface OpenedSession {
  result: SessionOpenResult;
  how: 'created' | 'resumed';
  /** Said after the header, e.g. why a new session opened instead of the one asked for. */
  notice?: { level: NoticeLevel; text: string };
}

export class SessionActions {
  readonly picker: PickerController;
  /** A switch is under way; a second one would race it. */
  private switching = false;

  constructor(private readonly host: SessionHost) {
    this.picker = new PickerController(host, (session) => void this.resume(session.id, session.title ?? session.id));
  }

  private get state() {
    return this.host.view.store.getState();
  }

  private notice(level: NoticeLevel, text: string): void {
    this.host.view.dispatch({ type: 'local.notice', level, text });
  }

  private create(client: HermesClient): Promise<SessionOpenResult> {
    return client.request('session.create', { cols: this.host.cols, cwd: this.host.cwd });
  }

  /** Opens the startup session. A stored session that cannot be found is not fatal: a new one opens instead. */
  async openInitial(client: HermesClient, startup: StartupSession): Promise<OpenedSession> {
    if (startup.kind === 'new') return { result: await this.create(client), how: 'created' };
    let target = startup.kind === 'resume' ? startup.target : undefined;
    if (startup.kind === 'continue') {
      const { sessions } = await client.request('session.list', { limit: 1 });
      target = sessions[0]?.id;
      if (!target)
        return { result: await this.create(client), how: 'created', notice: { level: 'warn', text: 'no earlier session to continue: this is a new one' } };
    }
    try {
      return { result: await client.request('session.resume', { session_id: target!, cols: this.host.cols }), how: 'resumed' };
    } catch (error) {
      if (errorCode(error) !== ErrorCode.SessionNotFound) throw error;
      this.host.logger.warn('startup session not found', { target, error });
      return {
        result: await this.create(client),
        how: 'created',
        notice: { level: 'warn', text: `no saved session matches "${target}": this is a new session (/sessions lists the saved ones)` },
      };
    }
  }

  /** The client and session a command can act on now; otherwise undefined, with the reason on screen. */
  private ready(what: string, idleOnly = true): { client: HermesClient; sessionId: string } | undefined {
    const { phase, sessionId, busy, shell } = this.state;
    const client = this.host.client();
    if (phase !== 'ready' || !sessionId || !client) {
      this.notice('warn', `${what}: ${phase === 'failed' ? 'the backend is not running' : 'still starting — try again in a moment'}`);
      return undefined;
    }
    if (idleOnly && (busy || shell)) {
      this.notice('warn', `${what}: hermes is still working — wait, or press Ctrl+C to interrupt first`);
      return undefined;
    }
    if (this.switching) {
      this.notice('warn', `${what}: another session is still opening`);
      return undefined;
    }
    return { client, sessionId };
  }

  run(command: ParsedSlash): void {
    if (command.kind === 'unknown') return this.notice('warn', unknownCommandNotice(command.name));
    switch (command.name) {
      case 'sessions':
        return this.picker.open();
      case 'undo':
        return void this.undo();
      case 'branch':
        return void this.switchTo('/branch', (client, sessionId) =>
          client.request('session.branch', { session_id: sessionId, ...(command.args ? { name: command.args } : {}) }), 'branched');
      case 'title':
        return void this.title(command.args);
      case 'new':
        return void this.switchTo('/new', (client) => this.create(client), 'created');
    }
  }

  /** Resumes a stored session (from the picker); the current one is closed once the other is open. */
  resume(storedId: string, label: string): Promise<void> {
    if (storedId === this.state.info?.stored_session_id) {
      this.notice('info', `already in ${label}`);
      return Promise.resolve();
    }
    return this.switchTo('resume', (client) => client.request('session.resume', { session_id: storedId, cols: this.host.cols }), 'resumed');
  }

  private async switchTo(
    what: string,
    open: (client: HermesClient, sessionId: string) => Promise<SessionOpenResult>,
    how: 'created' | 'resumed' | 'branched',
  ): Promise<void> {
    const target = this.ready(what);
    if (!target) return;
    this.switching = true;
    try {
      const result = await open(target.client, target.sessionId);
      this.host.declinePrompts();
      this.host.view.dispatch({ type: 'local.sessionOpened', result, how });
      this.host.logger.info('switched session', { how, from: target.sessionId, to: result.session_id, stored: result.stored_session_id });
      await target.client.request('session.close', { session_id: target.sessionId }).catch((error: unknown) =>
        this.host.logger.warn('could not close the previous session', { session_id: target.sessionId, error }),
      );
    } catch (error) {
      this.host.logger.warn(`${what} failed`, { error });
      const notFound = errorCode(error) === ErrorCode.SessionNotFound;
      this.notice('error', `${what} failed: ${notFound ? 'that session no longer exists' : errorMessage(error)}`);
    } finally {
      this.switching = false;
    }
  }

  private async undo(): Promise<void> {
    const target = this.ready('/undo');
    if (!target) return;
    try {
      const { removed, text } = await target.client.request('session.undo', { session_id: target.sessionId });
      if (!removed) return this.notice('info', 'nothing to undo');
      // <Static> cannot take back what it printed, so the undo is said rather than shown.
      this.notice('warn', `undone: ${firstLine(text) || '(the last turn)'}`);
      const composer = this.host.composer.getState();
      if (composer.draft === '') this.host.composer.setState({ draft: text, cursor: text.length });
      else this.notice('info', 'your draft was kept; the undone prompt is not in the composer');
    } catch (error) {
      this.host.logger.warn('session.undo failed', { error });
      this.notice('error', `/undo failed: ${errorMessage(error)}`);
    }
  }

  private async title(text: string): Promise<void> {
    const target = this.ready('/title', false);
    if (!target) return;
    try {
      const result = await target.client.request('session.title', { session_id: target.sessionId, ...(text ? { title: text } : {}) });
      if (text) {
        this.host.view.dispatch({ type: 'local.titleChanged', title: result.title });
        this.notice('info', `title set: ${result.title ?? text}`);
      } else this.notice('info', result.title ? `title: ${result.title}` : 'this session has no title yet — /title <text> sets one');
    } catch (error) {
      this.host.logger.warn('session.title failed', { error });
      this.notice('error', `/title failed: ${errorMessage(error)}`);
    }
  }

  dispose(): void {
    this.picker.close();
  }
}
