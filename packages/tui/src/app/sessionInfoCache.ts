/**
 * The latest `session.info` of sessions the TUI is not showing yet. A command like /new or /branch opens
 * a session inside the backend, whose info event may come before or after the command's answer; the
 * switch to it waits here for that info.
 */
import type { SessionInfo } from '@hermes/rpc-server/protocol';

/** Sessions remembered at once: only the few a command has just opened matter. */
const KEEP = 8;

export class SessionInfoCache {
  private readonly infos = new Map<string, SessionInfo>();
  private readonly waiters = new Map<string, ((info: SessionInfo) => void)[]>();

  put(sessionId: string, info: SessionInfo): void {
    this.infos.delete(sessionId);
    this.infos.set(sessionId, info);
    if (this.infos.size > KEEP) this.infos.delete(this.infos.keys().next().value!);
    for (const resolve of this.waiters.get(sessionId) ?? []) resolve(info);
    this.waiters.delete(sessionId);
  }

  /** The session's info, waiting up to `timeoutMs` for it; undefined if it never came. */
  get(sessionId: string, timeoutMs: number): Promise<SessionInfo | undefined> {
    const known = this.infos.get(sessionId);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const list = this.waiters.get(sessionId)?.filter((waiter) => waiter !== done);
        if (list?.length) this.waiters.set(sessionId, list);
        else this.waiters.delete(sessionId);
        resolve(undefined);
      }, timeoutMs);
      const done = (info: SessionInfo) => {
        clearTimeout(timer);
        resolve(info);
      };
      this.waiters.set(sessionId, [...(this.waiters.get(sessionId) ?? []), done]);
    });
  }
}
