import fs from 'node:fs';
import path from 'node:path';
import {
  SessionService,
  redactSecretsDeep,
  toTranscript,
  type ModelFlags,
  type SessionFacts,
  type SessionPrompts,
  type StoredSession,
} from '@hermes/agent-core';
import { DELTA_COALESCE_MS, EventBridge } from '../bridge/eventBridge.ts';
import {
  EVENT_METHOD,
  EventType,
  type EventPayloads,
  type EventType as EventName,
  type HermesEvent,
  type SessionOpenResult,
} from '../protocol/index.ts';
import type { LiveSession } from '../server/liveSessions.ts';
import { pluginFailureNotices } from '../server/plugins.ts';
import type { HandlerContext, HandlerTable } from './context.ts';
import { invalidParams } from './params.ts';
import { checkEvent } from '../server/contractCheck.ts';
import { closeLive } from './sessionKeeper.ts';
import { configProblemInfos } from './sessionInfo.ts';

/** Sends one event of a session, stamping its per-session sequence number. */
export function sendSessionEvent<K extends EventName>(
  ctx: HandlerContext,
  session: Pick<LiveSession, 'id' | 'seq'>,
  type: K,
  payload: EventPayloads[K],
): void {
  checkEvent(type, payload, ctx.logger);
  session.seq += 1;
  // Every event leaves through here: tool output, errors and deltas go out without secrets.
  const params = { type, session_id: session.id, seq: session.seq, ...(payload === undefined ? {} : { payload: redactSecretsDeep(payload) }) } as HermesEvent;
  const failed = (error: unknown) => ctx.logger.warn('could not send %s event: %s', type, (error as Error).message);
  // vscode-jsonrpc throws synchronously once the connection is closed (the client went away mid-turn).
  try {
    ctx.connection.sendNotification(EVENT_METHOD, params).catch(failed);
  } catch (error) {
    failed(error);
  }
}

export function resolveCwd(cwd: string | undefined): string {
  if (!cwd) return process.cwd();
  const full = path.resolve(cwd);
  let isDir = false;
  try {
    isDir = fs.statSync(full).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw invalidParams('session.create', 'cwd', `must be a directory; ${full} is not one`);
  return full;
}

/** The session's questions to its human, asked as server→client requests; no answer means deny. */
function sessionPrompts(ctx: HandlerContext, sessionId: string): SessionPrompts {
  return {
    approval: async (question, signal) => {
      const answer = await ctx.requests.ask(
        'approval',
        {
          session_id: sessionId,
          tool_name: question.toolName,
          command: question.command,
          description: question.description,
          findings: question.findings,
          choices: question.choices,
          ...(question.diff ? { diff: question.diff } : {}),
        },
        signal,
      );
      const choice = answer?.choice;
      return choice && question.choices.includes(choice) ? choice : 'deny';
    },
    clarify: async (question, choices, signal) => {
      const answer = await ctx.requests.ask(
        'clarify',
        { session_id: sessionId, question, ...(choices?.length ? { choices } : {}) },
        signal,
      );
      return typeof answer?.answer === 'string' ? answer.answer : null;
    },
  };
}

export interface OpenOptions {
  cwd: string;
  title?: string | null;
  overrides?: ModelFlags;
  resume?: StoredSession;
  parentId?: string;
  /** Reopen under this wire id, continuing its event numbering (after an idle close). */
  reopen?: { id: string; seq: number };
  yolo?: boolean;
  /** Answer with the last `tail` messages only (session.resume's `tail`); message_count still counts them all. */
  tail?: number;
}

/** What a session cannot know about this backend: read at each session.info, so a plugin reload shows. */
function sessionFacts(ctx: HandlerContext, id: string): SessionFacts {
  return {
    version: ctx.version,
    demo: ctx.demo,
    pluginCount: () => ctx.plugins.list().filter((p) => p.enabled).length,
    toolsets: () => ctx.runtime.tools.byToolset(),
    configProblems: () => configProblemInfos(ctx.runtime),
    sharedChange: () => {
      for (const other of ctx.sessions.all()) if (other.id !== id) other.service.publishInfo();
    },
  };
}

/**
 * How long after a session opens its model's first call is readied (ChatProvider.warmUp). Not at
 * once: the loading takes a CPU for ~40 ms, and on a 2-core machine it then ran beside the client
 * drawing the new session's prompt, which showed ~18 ms later (paired, 21 starts). A person takes
 * longer than this to type a prompt; a prompt sent sooner loads what its call needs itself.
 */
const MODEL_WARM_UP_DELAY_MS = 250;

/** Opens the agent session behind a live one and registers it; sends no event. */
export function startLive(ctx: HandlerContext, options: OpenOptions): LiveSession {
  const id = options.reopen?.id ?? ctx.sessions.newId();
  const live = { id, seq: options.reopen?.seq ?? 0 } as LiveSession;
  live.bridge = new EventBridge((type, payload) => sendSessionEvent(ctx, live, type, payload), DELTA_COALESCE_MS, ctx.outputBacklog);
  live.service = SessionService.open(ctx.runtime, sessionFacts(ctx, id), {
    cwd: options.cwd,
    title: options.title ?? null,
    ...(options.overrides ? { overrides: options.overrides } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    ...(options.parentId ? { parentId: options.parentId } : {}),
    ...(options.yolo ? { yolo: options.yolo } : {}),
    emit: (event) => live.bridge.handle(event),
    prompts: sessionPrompts(ctx, id),
  });
  live.agent = live.service.agent;
  ctx.sessions.add(live);
  ctx.logger.info('session %s opened (stored %s, cwd %s%s)', id, live.agent.id, options.cwd, options.resume ? ', resumed' : '');
  return live;
}

/**
 * Opens a live session (new, resumed or branched): wires its events to the wire, and answers with
 * the shape every opening method shares. `session.info` (and a setup problem) follow the reply.
 */
export function openLive(ctx: HandlerContext, options: OpenOptions): SessionOpenResult {
  const live = startLive(ctx, options);
  const info = live.service.info();
  const { store } = ctx.runtime;
  const stored = options.resume || options.parentId;
  // A tail is read with SQL LIMIT: the rest of a long session is neither read nor converted (the agent
  // reads its model context from the store at the first turn, as it always has).
  const messages = !stored ? [] : toTranscript(options.tail === undefined ? live.agent.history() : store.lastMessages(live.agent.id, options.tail));
  const count = !stored || options.tail === undefined ? messages.length : store.messageCount(live.agent.id);
  // After the reply (vscode-jsonrpc sends it on a later tick): the client learns the id first.
  setImmediate(() => {
    sendSessionEvent(ctx, live, EventType.SessionInfo, info);
    const problem = live.service.setupProblem();
    if (problem) sendSessionEvent(ctx, live, EventType.Error, { message: problem });
    for (const text of pluginFailureNotices(ctx.plugins)) sendSessionEvent(ctx, live, EventType.StatusUpdate, { kind: 'warn', text });
  });
  // The session now waits for its first prompt: its model's first call is readied meanwhile (the SDK,
  // Node's fetch: ~50 ms of the first reply's start otherwise), once the client has drawn it.
  setTimeout(() => {
    const started = performance.now();
    void live.agent.warmUp().then((warmed) => warmed && ctx.logger.info('session %s: model call readied in %d ms', live.id, Math.round(performance.now() - started)));
  }, MODEL_WARM_UP_DELAY_MS).unref();
  return { session_id: live.id, stored_session_id: live.agent.id, message_count: count, messages, info };
}

export function sessionHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'session.create': (params) => {
      // A title another session has is a StoreError with the usage code (4004).
      return openLive(ctx, {
        cwd: resolveCwd(params.cwd),
        // Trimmed as session.title and /title trim: "  " is no title, " Plan " is "Plan" (and taken if "Plan" is).
        title: params.title?.trim() || null,
        overrides: { ...(params.model ? { model: params.model } : {}), ...(params.provider ? { provider: params.provider } : {}) },
      });
    },

    'session.close': async ({ session_id }) => {
      // Closed for idling already: closing it now only ends the chance to reopen it.
      if (!ctx.sessions.find(session_id) && ctx.sessions.forgetClosed(session_id)) return { closed: true };
      const live = ctx.sessions.get(session_id);
      ctx.sessions.remove(session_id);
      await closeLive(ctx, live);
      return { closed: true };
    },

    'session.compress': async (params) => {
      const live = ctx.sessions.get(params.session_id);
      // Busy (4009), no model (5032) and interrupted (4004) are the service's typed errors.
      const result = await live.service.compress(params.focus_topic);
      return { removed: result.removed, before_tokens: result.beforeTokens, after_tokens: result.afterTokens, summary: result.summary };
    },

    'session.usage': ({ session_id }) => {
      return { ...ctx.sessions.get(session_id).agent.usage };
    },

    'session.history': ({ session_id, offset, limit }) => {
      const { store } = ctx.runtime;
      // A page when asked (offset and/or limit), read with SQL LIMIT/OFFSET; `count` counts them all.
      const paged = offset !== undefined || limit !== undefined;
      const read = (id: string) => {
        const messages = toTranscript(paged ? store.messagePage(id, offset ?? 0, limit ?? -1) : store.messages(id));
        return { count: paged ? store.messageCount(id) : messages.length, messages };
      };
      let live: LiveSession;
      try {
        live = ctx.sessions.get(session_id);
      } catch (error) {
        // Not open here: read the stored session without opening it. Opening would repair it on load,
        // writing "interrupted" results for tool calls another hermes may still be running.
        const stored = store.findSession(session_id);
        if (!stored) throw error;
        const { id, title, model, provider, cwd, started_at, source } = stored;
        return { ...read(stored.id), stored: { id, title, model, provider, cwd, started_at, source } };
      }
      return read(live.agent.id);
    },
  };
}
