/**
 * Opening, switching and editing sessions: the startup choice (`--resume`, `--continue`), the picker's
 * resume, and slash commands: sent to the backend, whose directives (prefill, send, switch session — with
 * the screen wiped for `/clear` —, picker) are carried out here.
 */
import { ErrorCode, type CommandDirective, type ResultOf, type SessionOpenResult } from '@hermes/rpc-server/protocol';
import { firstLine, type SlashRoute } from '../commands/localCommands.ts';
import { describeDetails, parseDetailsArgs } from '../details/detailsMode.ts';
import { loadMarkdown } from '../markdown/loadMarkdown.ts';
import { RESUME_MESSAGES } from '../transcript/printPlan.ts';
import { earlierPages } from '../transcript/earlierPages.ts';
import { showInPager } from '../transcript/transcriptPager.ts';
import { forgetTextsExcept } from '../transcript/transcriptTexts.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import { notReadyReason, type NoticeLevel } from '../state/viewState.ts';
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
      return { result: await client.request('session.resume', { session_id: target!, cols: this.host.cols, tail: RESUME_MESSAGES }), how: 'resumed' };
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
      this.notice('warn', `${what}: ${notReadyReason(phase)}`);
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

  /** Runs a `/command`: `/sessions`, `/details` and `/transcript` here, everything else through the backend's `slash.exec`. */
  run(command: SlashRoute): void {
    if (command.kind === 'local') {
      if (command.name === 'details') return this.details(command.args);
      if (command.name === 'transcript') return void this.transcript();
      return this.picker.open();
    }
    void this.exec(command.command);
  }

  /**
   * `/transcript`: every entry in the pager, from the session's first message (those a resume did not
   * load are read from the backend in pages while the pager shows the first); replies as markdown, or
   * plain if the renderer cannot load (that failure is logged where it happens).
   */
  private async transcript(): Promise<void> {
    await loadMarkdown().catch(() => undefined);
    const { transcript, earlier = 0, sessionId } = this.state;
    const client = this.host.client();
    let pages: AsyncGenerator<TranscriptItem[]> | undefined;
    // The first page is read before the pager opens: a backend that cannot answer is said here, on the screen.
    let first: IteratorResult<TranscriptItem[]> | undefined;
    try {
      if (earlier > 0) {
        if (!client || !sessionId) throw new Error(notReadyReason(this.state.phase));
        pages = earlierPages(client, sessionId, earlier);
        first = await pages.next();
      }
    } catch (error) {
      this.host.logger.warn('the earlier messages could not be read for /transcript', { error });
      return this.notice('error', `/transcript: the earlier messages could not be read (${errorMessage(error)})`);
    }
    // After the session's header and the resume's notice under it, where the loaded messages begin
    // (their own first item may be a notice too: a system message).
    let at = transcript.findLastIndex((item) => item.kind === 'header') + 1;
    if (transcript[at]?.kind === 'notice') at += 1;
    async function* entries(): AsyncGenerator<readonly TranscriptItem[]> {
      yield transcript.slice(0, at);
      if (first && !first.done) yield first.value;
      if (pages) yield* pages;
      yield transcript.slice(at);
    }
    forgetTextsExcept(transcript);
    // Opens at once: the entries are read and rendered while the pager shows the first ones.
    const shown = await showInPager(entries(), process.stdout.columns || this.host.cols, this.state.details);
    // The earlier entries' texts are not kept: the next /transcript reads them again.
    forgetTextsExcept(this.state.transcript);
    if (!shown.ok) this.notice('error', shown.error);
  }

  /** `/details`: a screen setting, so it works at any time, even while a turn runs or the backend restarts. */
  private details(args: string): void {
    const parsed = parseDetailsArgs(args);
    if ('error' in parsed) return this.notice('error', parsed.error);
    const current = this.state.details;
    const details = parsed.mode ? { ...current, ...Object.fromEntries(parsed.sections.map((section) => [section, parsed.mode])) } : current;
    if (parsed.mode) this.host.view.dispatch({ type: 'local.detailsSet', details });
    this.notice('info', describeDetails(details));
  }

  /** Sent even while a turn runs: the backend refuses (4009) what cannot run then, and runs /stop at once. */
  private async exec(command: string): Promise<void> {
    const { phase, sessionId } = this.state;
    const client = this.host.client();
    if (phase !== 'ready' || !sessionId || !client) {
      this.notice('warn', `${command}: ${notReadyReason(phase)}`);
      return;
    }
    let result: ResultOf<'slash.exec'>;
    this.host.view.dispatch({ type: 'local.commandSent', command });
    try {
      result = await client.request('slash.exec', { session_id: sessionId, command });
    } catch (error) {
      const code = errorCode(error);
      this.host.logger[code === ErrorCode.NotACommand || code === ErrorCode.SessionBusy ? 'info' : 'warn']('slash.exec refused', { command, error });
      // A backend that died with the command open: said in words, as for a `!cmd` (the restart follows).
      const message = client.isClosed ? 'the backend stopped before it finished' : errorMessage(error);
      this.host.view.dispatch({ type: 'local.commandRan', command, error: message });
      return;
    }
    const { output, warning, exit } = result;
    this.host.view.dispatch({ type: 'local.commandRan', command, output, warning });
    if (exit) return this.host.exit();
    if (result.directive) await this.follow(result.directive, command, sessionId);
  }

  /** Does what a command's directive asks of the screen; one this TUI does not know (a newer backend's) is logged and skipped. */
  private async follow(directive: CommandDirective, command: string, from: string): Promise<void> {
    const skip = (why: string) => this.host.logger.warn(`skipped a directive: ${why}`, { command, directive });
    switch (directive.type) {
      case 'prefill': {
        if (this.host.composer.getState().draft === '')
          this.host.composer.setState({ draft: directive.text, cursor: directive.text.length });
        else this.notice('info', 'your draft was kept; the text the command gave back is not in the composer');
        return;
      }
      case 'send':
        if (!directive.message.trim()) return skip('nothing to send');
        if (!this.host.sendPrompt(directive.message)) this.notice('warn', `not sent: ${firstLine(directive.message)}`);
        return;
      case 'new':
        return this.adopt(directive.session_id, from, 'created', directive.clear);
      case 'resume':
        if (directive.session_id) return this.adopt(directive.session_id, from, 'branched');
        if (directive.target) return this.resume(directive.target, `"${directive.target}"`);
        return skip('it names no session to resume');
      case 'picker':
        if (directive.picker === 'sessions') return this.picker.open();
        this.notice('info', 'there is no model picker here yet: /model <name> switches the model');
        return;
      default:
        return skip('this TUI does not know it');
    }
  }

  /**
   * Shows a session the backend has already opened (by /new, /branch), and closes the one left behind
   * (unless the backend kept the same id).
   */
  private async adopt(sessionId: string, from: string, how: 'created' | 'branched', clear = false): Promise<void> {
    if (this.switching) return this.notice('warn', 'another session is still opening');
    const client = this.host.client();
    if (!client) return;
    this.switching = true;
    try {
      const [info, history] = await Promise.all([
        this.host.sessionInfo(sessionId),
        client.request('session.history', { session_id: sessionId }),
      ]);
      const shown = info ?? this.state.info;
      if (!shown) throw new Error(`no information about session ${sessionId} arrived`);
      if (!info) this.host.logger.warn('switched without the new session\'s info', { session_id: sessionId });
      const result: SessionOpenResult = {
        session_id: sessionId,
        stored_session_id: shown.stored_session_id,
        message_count: history.count,
        messages: history.messages,
        info: shown,
      };
      // Wiped before the new transcript renders, so its header is the first row on the screen.
      if (clear) this.host.clearScreen();
      this.host.view.dispatch({ type: 'local.sessionOpened', result, how, ...(clear ? { clear } : {}) });
      this.host.logger.info('switched session', { how, from, to: sessionId, clear });
      if (sessionId !== from)
        await client.request('session.close', { session_id: from }).catch((error: unknown) =>
          this.host.logger.info('the previous session was not closed (the backend may have closed it)', { session_id: from, error }),
        );
    } catch (error) {
      this.host.logger.warn('switching to a session a command opened failed', { session_id: sessionId, error });
      this.notice('error', `could not switch to the new session: ${errorMessage(error)}`);
    } finally {
      this.switching = false;
    }
  }

  /** Resumes a stored session (from the picker); the current one is closed once the other is open. */
  resume(storedId: string, label: string): Promise<void> {
    if (storedId === this.state.info?.stored_session_id) {
      this.notice('info', `already in ${label}`);
      return Promise.resolve();
    }
    return this.switchTo('resume', (client) => client.request('session.resume', { session_id: storedId, cols: this.host.cols, tail: RESUME_MESSAGES }), 'resumed');
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

  dispose(): void {
    this.picker.close();
  }
}
