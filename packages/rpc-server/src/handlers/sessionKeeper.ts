import fs from 'node:fs';
import { SessionNotFoundError } from '@hermes/agent-core';
import { EventType } from '../protocol/index.ts';
import type { LiveSession, SessionKeeper } from '../server/liveSessions.ts';
import type { HandlerContext } from './context.ts';
import { sendSessionEvent, startLive } from './sessionHandlers.ts';

/**
 * The one way a live session ends (session.close, resume over it, idle close, shutdown), once it is
 * out of the open set: its questions are withdrawn, its turn stopped, its last events sent.
 */
export async function closeLive(ctx: HandlerContext, live: LiveSession, reason?: string): Promise<void> {
  // The session is no longer findable by id, so its request.cancel events are sent through it directly.
  ctx.requests.cancelAll('session_closed', live.id, (_, payload) => sendSessionEvent(ctx, live, EventType.RequestCancel, payload));
  await live.service.close(reason);
  live.bridge.flush();
}

/** How LiveSessions closes idle sessions and brings them back under the same wire id. */
export function sessionKeeper(ctx: HandlerContext): SessionKeeper {
  return {
    close: (live) => closeLive(ctx, live),
    reopen: (id, closed) => {
      const stored = ctx.runtime.store.findSession(closed.storedId);
      if (!stored) {
        ctx.sessions.forgetClosed(id);
        throw new SessionNotFoundError(
          `Session "${id}" was closed while idle and its stored session ${closed.storedId} is gone (deleted?). Create a new one with session.create.`,
        );
      }
      const live = startLive(ctx, {
        cwd: fs.existsSync(closed.cwd) ? closed.cwd : process.cwd(),
        resume: stored,
        ...(closed.overrides ? { overrides: closed.overrides } : {}),
        reopen: { id, seq: closed.seq },
        yolo: closed.yolo,
      });
      return live;
    },
  };
}
