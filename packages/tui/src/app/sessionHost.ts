/** What the session actions and the picker need from the controller: narrow, so each can be tested apart. */
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
  /** Declines the questions of the session being left: nobody will see their cards any more. */
  declinePrompts(): void;
}

/** Which session the TUI opens at startup: a fresh one, a stored one by id or title, or the latest. */
export type StartupSession = { kind: 'new' } | { kind: 'resume'; target: string } | { kind: 'continue' };
