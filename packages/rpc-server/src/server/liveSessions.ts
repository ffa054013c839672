import crypto from 'node:crypto';
import { SessionNotFoundError, type AgentSession, type Logger, type ModelFlags, type SessionService } from '@hermes/agent-core';
import type { EventBridge } from '../bridge/eventBridge.ts';

export interface LiveSession {
  /** Runtime id used on the wire while the backend lives. */
  id: string;
  /** Every change to the session goes through it. */
  service: SessionService;
  /** `service.agent`: its turns, history and usage. */
  agent: AgentSession;
  bridge: EventBridge;
  seq: number;
}

/** What a session closed for being idle (or over the cap) needs to come back under the same id. */
export interface ClosedSession {
  storedId: string;
  seq: number;
  cwd: string;
  yolo: boolean;
  overrides?: ModelFlags;
}

export interface SessionLimits {
  /** Close a session after this long without a request or a running turn; 0 never does. */
  idleCloseMs: number;
  /** At most this many open sessions: past it the least recently used idle ones close. */
  maxOpen: number;
}

/** How sessions are closed and reopened: the handlers' business (requests, events, the store). */
export interface SessionKeeper {
  close(live: LiveSession): Promise<void>;
  /** Opens the stored session again under its old wire id; throws 4001 when it is gone. */
  reopen(id: string, closed: ClosedSession): LiveSession;
}

/** Wire ids of closed sessions remembered for a transparent reopen; the oldest are forgotten first. */
const REMEMBERED_CLOSED = 10_000;

/**
 * The sessions open in this backend process, by runtime id. A session idle for
 * `sessions.idle_close`, or the least recently used idle one when more than `sessions.max_open` are
 * open, is closed; its wire id is remembered, and the next request naming it reopens the stored
 * session under the same id, so a client that was away (a TUI left open overnight) never notices.
 * A session with a running turn is never closed.
 */
export class LiveSessions {
  private readonly sessions = new Map<string, LiveSession>();
  /** When each session was last used, and in what order (two uses can share a millisecond). */
  private readonly lastUsed = new Map<string, { at: number; order: number }>();
  private uses = 0;
  private readonly closed = new Map<string, ClosedSession>();
  private limits: SessionLimits = { idleCloseMs: 0, maxOpen: Number.POSITIVE_INFINITY };
  private keeper: SessionKeeper | undefined;
  private logger: Logger | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** Starts closing idle sessions and holding the cap. */
  manage(limits: SessionLimits, keeper: SessionKeeper, logger: Logger): void {
    this.limits = limits;
    this.keeper = keeper;
    this.logger = logger;
    clearInterval(this.timer);
    if (limits.idleCloseMs > 0) {
      // Checked a few times per idle period: a session closes at most a quarter period late.
      const every = Math.max(100, Math.min(limits.idleCloseMs / 4, 60_000));
      this.timer = setInterval(() => this.closeIdle(Date.now()), every);
      this.timer.unref();
    }
  }

  /** Stops the idle timer (at shutdown). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  newId(): string {
    let id: string;
    do id = crypto.randomBytes(8).toString('hex');
    while (this.sessions.has(id) || this.closed.has(id));
    return id;
  }

  add(session: LiveSession): void {
    this.sessions.set(session.id, session);
    this.closed.delete(session.id);
    this.touch(session.id, Date.now());
    this.holdCap(session.id);
  }

  /** The session (reopened if it was closed for idling), or a 4001 error telling the client to resume. */
  get(id: string): LiveSession {
    const session = this.find(id);
    if (session) return session;
    const closed = this.closed.get(id);
    if (closed && this.keeper) {
      this.logger?.info('session %s reopened (stored %s) after an idle close', id, closed.storedId);
      return this.keeper.reopen(id, closed);
    }
    throw new SessionNotFoundError(
      `Session "${id}" is not open in this backend. Create one with session.create, or reopen a stored one with session.resume.`,
    );
  }

  /** The session if it is open, without the 4001 error. */
  find(id: string): LiveSession | undefined {
    const session = this.sessions.get(id);
    if (session) this.touch(id, Date.now());
    return session;
  }

  remove(id: string): void {
    this.sessions.delete(id);
    this.lastUsed.delete(id);
  }

  /** Forgets a session closed for idling (an explicit close or resume ends it for good). */
  forgetClosed(id: string): boolean {
    return this.closed.delete(id);
  }

  /** Forgets every idle-closed wire id of a stored session (it was resumed under a new id). */
  forgetClosedOf(storedId: string): void {
    for (const [id, closed] of this.closed) if (closed.storedId === storedId) this.closed.delete(id);
  }

  all(): LiveSession[] {
    return [...this.sessions.values()];
  }

  get openCount(): number {
    return this.sessions.size;
  }

  /** Closes the sessions idle for longer than the limit. */
  closeIdle(now: number): void {
    for (const session of this.all()) {
      if (session.agent.busy || session.agent.shellsRunning > 0) {
        // A turn (or a `!cmd`) counts as use: idling starts when it ends.
        this.touch(session.id, now);
        continue;
      }
      if (now - (this.lastUsed.get(session.id)?.at ?? now) >= this.limits.idleCloseMs) this.closeForNow(session, 'idle');
    }
  }

  private touch(id: string, at: number): void {
    this.uses += 1;
    this.lastUsed.set(id, { at, order: this.uses });
  }

  private holdCap(keep: string): void {
    if (this.sessions.size <= this.limits.maxOpen) return;
    const idle = this.all()
      .filter((s) => s.id !== keep && !s.agent.busy && s.agent.shellsRunning === 0)
      .sort((a, b) => (this.lastUsed.get(a.id)?.order ?? 0) - (this.lastUsed.get(b.id)?.order ?? 0));
    for (const session of idle) {
      if (this.sessions.size <= this.limits.maxOpen) return;
      this.closeForNow(session, `over sessions.max_open (${this.limits.maxOpen})`);
    }
    this.logger?.warn('%d sessions open, over sessions.max_open (%d): the others are running turns', this.sessions.size, this.limits.maxOpen);
  }

  private closeForNow(session: LiveSession, why: string): void {
    if (!this.keeper) return;
    // Events still buffered go out first, so the numbering recorded below is the last one sent.
    session.bridge.flush();
    this.remove(session.id);
    this.closed.set(session.id, {
      storedId: session.agent.id,
      seq: session.seq,
      cwd: session.agent.cwd,
      yolo: session.agent.yolo,
      ...(session.service.overrides ? { overrides: session.service.overrides } : {}),
    });
    if (this.closed.size > REMEMBERED_CLOSED) this.closed.delete(this.closed.keys().next().value!);
    this.logger?.info('session %s closed (%s); it reopens on its next request', session.id, why);
    this.keeper.close(session).catch((error: unknown) => {
      this.logger?.error('closing session %s failed: %s', session.id, (error as Error).stack ?? String(error));
    });
  }
}
