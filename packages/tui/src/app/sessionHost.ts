/** What the session actions and the picker need from the controller: narrow, so each can be tested apart. */
import type { SessionInfo } from '@hermes/rpc-server/protocol';
import type { Logger } from '../logging/logger.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import type { ComposerStore } from '../state/composerStore.ts';
import type { ViewStore } from '../state/viewStore.ts';

export interface SessionHost {
  readonly view: ViewStore;
  readonly composer: ComposerStore;
  readonly logger: Logger;
  readonly cols: number;
  readonly cwd: string;
  /** The backend's client once it is running. */
  client(): HermesClient | undefined;
  /** The info of a session the backend opened by itself (e.g. for /new), waiting briefly for it. */
  sessionInfo(sessionId: string): Promise<SessionInfo | undefined>;
  /** Sends `text` as an ordinary prompt (a command's `send` directive); false when it cannot go now. */
  sendPrompt(text: string): boolean;
  /** The backend asked the TUI to exit (/quit). */
  exit(): void;
  /** Wipes the terminal's screen and scrollback (`/clear`), before the transcript starts again. */
  clearScreen(): void;
}

/** Which session the TUI opens at startup: a fresh one, a stored one by id or title, or the latest. */
export type StartupSession = { kind: 'new' } | { kind: 'resume'; target: string } | { kind: 'continue' };
