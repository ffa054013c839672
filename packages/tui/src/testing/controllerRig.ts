/**
 * A SessionController against the fake backend process (a real child over real pipes, scripted
 * replies), with helpers to wait on its stores.
 */
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { runtimeFrom } from '../app/runtime.ts';
import { historyFile } from '../history/historyFile.ts';
import { SessionController } from '../app/sessionController.ts';
import { silentLogger } from '../logging/logger.ts';
import type { ViewState } from '../state/viewState.ts';
import { FAKE_BACKEND } from './ptyHarness.ts';

/** Points the controller at the fake backend; `restore()` puts HERMES_RPC_ENTRY back as it was. */
export function fakeBackendController(): { controller: SessionController; restore: () => Promise<void> } {
  const saved = process.env.HERMES_RPC_ENTRY;
  process.env.HERMES_RPC_ENTRY = FAKE_BACKEND;
  const controller = new SessionController({
    backend: {},
    runtime: runtimeFrom(new URL('../main.tsx', import.meta.url).href),
    logger: silentLogger,
    cwd: process.cwd(),
    cols: 80,
    // Prompts sent in tests go to a history file of their own, never the user's.
    historyFile: historyFile(tempDir('hermes-rig-history-')),
  });
  const restore = async () => {
    await controller.shutdown();
    if (saved === undefined) delete process.env.HERMES_RPC_ENTRY;
    else process.env.HERMES_RPC_ENTRY = saved;
  };
  return { controller, restore };
}

/** Resolves once a store's state satisfies `check` (at once if it already does). */
export function untilState<T>(store: { getState(): T; subscribe(listener: (state: T) => void): () => void }, check: (state: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    if (check(store.getState())) return resolve(store.getState());
    const stop = store.subscribe((state) => {
      if (!check(state)) return;
      stop();
      resolve(state);
    });
  });
}

/** The transcript's text entries as `kind: text`. */
export const transcriptTexts = (state: ViewState) => state.transcript.flatMap((item) => ('text' in item ? [`${item.kind}: ${item.text}`] : []));

/** A finished turn whose assistant reply is `text`. */
export const replied = (text: string) => (s: ViewState) => !s.busy && transcriptTexts(s).includes(`assistant: ${text}`);
