import fs from 'node:fs';
import { branchStored, exportConversation, SessionBusyError, SessionNotFoundError, type StoredSession } from '@hermes/agent-core';
import type { HandlerContext, HandlerTable } from './context.ts';
import { openLive } from './sessionHandlers.ts';
import { closeLive } from './sessionKeeper.ts';

function notFound(what: string): SessionNotFoundError {
  return new SessionNotFoundError(
    `No stored session has the id or title "${what}". \`hermes sessions list\` shows them.`,
  );
}

/** The stored session behind a wire id (a live runtime id, or a stored id/title). */
function storedFor(ctx: HandlerContext, idOrTitle: string): StoredSession {
  const live = ctx.sessions.find(idOrTitle);
  const stored = ctx.runtime.store.findSession(live ? live.agent.id : idOrTitle);
  if (!stored) throw notFound(idOrTitle);
  return stored;
}

/** Sessions as stored: list, search, resume, title, branch, undo, delete. */
export function lifecycleHandlers(ctx: HandlerContext): HandlerTable {
  // Read at each call, not here: a backend without a session store (hermes doctor's) still starts.
  const store = () => ctx.runtime.store;
  return {
    'session.list': (params) => {
      const sessions = store().listSessions({ limit: params.limit ?? 50, ...(params.query?.trim() ? { query: params.query } : {}) });
      return {
        sessions: sessions.map((s) => ({
          id: s.id,
          title: s.title,
          preview: s.preview,
          started_at: s.started_at,
          last_active: s.last_active,
          message_count: s.message_count,
          source: s.source,
        })),
      };
    },

    'session.search': (params) => {
      const { hits, searchedSince } = store().searchWithCoverage(params.query, { limit: params.limit ?? 20, ...(params.exhaustive ? { exhaustive: true } : {}) });
      return {
        hits: hits.map((h) => ({ session_id: h.sessionId, title: h.title, role: h.role, snippet: h.snippet, timestamp: h.timestamp })),
        ...(searchedSince !== undefined ? { searched_since: searchedSince } : {}),
      };
    },

    'session.resume': async (params) => {
      const stored = store().findSession(params.session_id);
      if (!stored) throw notFound(params.session_id);
      // Reopening a session this backend still has open replaces the old live one.
      ctx.sessions.forgetClosedOf(stored.id);
      for (const live of ctx.sessions.all().filter((l) => l.agent.id === stored.id)) {
        ctx.sessions.remove(live.id);
        await closeLive(ctx, live);
      }
      // What a run that died left unfinished (a streaming reply, unanswered tool calls) is repaired on load.
      const cwd = stored.cwd && fs.existsSync(stored.cwd) ? stored.cwd : process.cwd();
      // A long session's end only, when asked: reading and sending 10,000 messages costs both sides ~100 ms a megabyte.
      return openLive(ctx, { cwd, resume: stored, ...(params.tail !== undefined ? { tail: params.tail } : {}) });
    },

    'session.title': (params) => {
      const stored = storedFor(ctx, params.session_id);
      const title = params.title?.trim();
      if (!title) return { title: stored.title };
      const live = ctx.sessions.find(params.session_id);
      // A live session's title is changed by its service (session.title and session.info follow).
      // A title another session has is a StoreError with the usage code (4004); a disk failure is a storage one.
      if (live) live.service.setTitle(title);
      else store().setTitle(stored.id, title);
      return { title };
    },

    'session.branch': (params) => {
      const source = storedFor(ctx, params.session_id);
      const live = ctx.sessions.find(params.session_id);
      const name = params.name?.trim();
      // A live session's service refuses during a turn or compress (SessionBusyError).
      const branched = live ? live.service.branch(name) : branchStored(store(), source.id, name);
      const cwd = live?.agent.cwd ?? (source.cwd && fs.existsSync(source.cwd) ? source.cwd : process.cwd());
      // A branch goes on with the model its source was switched to (`/model`, session.create's model).
      const overrides = live?.service.overrides;
      return openLive(ctx, { cwd, resume: branched, parentId: source.id, ...(overrides ? { overrides } : {}) });
    },

    /** The one exporter; reads the store only, so a session another hermes runs is not repaired or written. */
    'session.export': ({ session_id, format }) => {
      const stored = storedFor(ctx, session_id);
      return { format, text: exportConversation(format, stored, store().messages(stored.id)) };
    },

    'session.undo': ({ session_id }) => {
      // SessionBusyError (4009) during a turn.
      return ctx.sessions.get(session_id).service.undoMessages();
    },

    'session.delete': ({ session_id }) => {
      // A live id names its stored session too (and that one is open).
      const stored = storedFor(ctx, session_id);
      if (ctx.sessions.all().some((l) => l.agent.id === stored.id)) {
        throw new SessionBusyError('That session is open: close it (session.close) before deleting it.');
      }
      return { deleted: store().deleteSession(stored.id) };
    },
  };
}
