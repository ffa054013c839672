import crypto from 'node:crypto';
import type { AgentSession } from '@hermes/agent-core';
import { ResponseError } from 'vscode-jsonrpc/node';
import type { EventBridge } from '../bridge/eventBridge.ts';
import { ErrorCode } from '../protocol/index.ts';

export interface LiveSession {
  /** Runtime id used on the wire while the backend lives. */
  id: string;
  agent: AgentSession;
  bridge: EventBridge;
  seq: number;
}

/** The sessions open in this backend process, by runtime id. */
export class LiveSessions {
  private readonly sessions = new Map<string, LiveSession>();

  newId(): string {
    let id: string;
    do id = crypto.randomBytes(4).toString('hex');
    while (this.sessions.has(id));
    return id;
  }

  add(session: LiveSession): void {
    this.sessions.set(session.id, session);
  }

  /** The session, or a 4001 error telling the client to resume by stored id. */
  get(id: string): LiveSession {
    const session = this.sessions.get(id);
    if (!session) {
      throw new ResponseError(
        ErrorCode.SessionNotFound,
        `Session "${id}" is not open in this backend. Create one with session.create, or reopen a stored one with session.resume.`,
      );
    }
    return session;
  }

  /** The session if it is open, without the 4001 error. */
  find(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  all(): LiveSession[] {
    return [...this.sessions.values()];
  }
}
