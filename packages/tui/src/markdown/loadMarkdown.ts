/**
 * Loads the markdown renderer on first need, off the startup path: `marked` and the grammars are a
 * dynamic import, started when a reply is on its way (a prompt sent, a session resumed) or, ahead of
 * that, once a new session's prompt has been idle a moment (`preloadMarkdown`). Until it has loaded,
 * assistant text shows plain; if it cannot load, it stays plain. Once loaded it draws a sample reply,
 * a block per turn of the event loop, so the first real one does not pay for compiling the renderer's
 * code and nothing waits long behind the warm-up.
 */
export type MarkdownModule = typeof import('./renderMarkdown.ts');

export type MarkdownState = { status: 'idle' | 'loading' } | { status: 'ready'; module: MarkdownModule } | { status: 'failed'; error: Error };

/** The fence languages whose grammars a preload also builds: a TypeScript grammar takes ~20 ms to build on first use. */
export const PRELOADED_LANGUAGES = ['typescript', 'javascript', 'python', 'bash'] as const;

let state: MarkdownState = { status: 'idle' };
let pending: Promise<MarkdownModule> | undefined;
const listeners = new Set<() => void>();
let reportFailure: ((error: Error) => void) | undefined;

/** Where a failed load is reported (the TUI's log); replies then show as plain text. */
export function onMarkdownFailure(report: (error: Error) => void): void {
  reportFailure = report;
}

function settle(next: MarkdownState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Starts loading (once) and resolves with the renderer; rejects with why it could not load. */
export function loadMarkdown(): Promise<MarkdownModule> {
  if (!pending) {
    settle({ status: 'loading' });
    pending = import('./renderMarkdown.ts').then(
      (module) => {
        settle({ status: 'ready', module });
        // After what is waiting for the renderer has run: the model's first words are usually still to come.
        void inSteps(module.WARM_UP_BLOCKS.map((block) => () => module.warmUp(block)));
        return module;
      },
      (cause: unknown) => {
        const error = cause instanceof Error ? cause : new Error(String(cause));
        settle({ status: 'failed', error });
        reportFailure?.(error);
        throw error;
      },
    );
  }
  return pending;
}

/**
 * Runs `steps` one per turn of the event loop, settling once all have run; a failing step is reported
 * (the TUI's log) and the rest still run.
 */
function inSteps(steps: readonly (() => unknown)[]): Promise<void> {
  return new Promise((resolve) => {
    let next = 0;
    const run = () => {
      const step = steps[next++];
      if (!step) return resolve();
      try {
        step();
      } catch (cause) {
        reportFailure?.(cause instanceof Error ? cause : new Error(String(cause)));
      }
      setImmediate(run);
    };
    setImmediate(run);
  });
}

/**
 * Loads and warms the renderer before a reply needs it, and builds the grammars of PRELOADED_LANGUAGES:
 * for a new session whose prompt has been idle a moment (app/sessionController.ts), so its first reply
 * is drawn as fast as the later ones. Resolves true once that is done; false, doing nothing, when the
 * renderer was already loading or loaded, or could not load (kept as the 'failed' state and logged
 * through onMarkdownFailure).
 */
export async function preloadMarkdown(): Promise<boolean> {
  if (state.status !== 'idle') return false;
  let module: MarkdownModule;
  try {
    module = await loadMarkdown();
  } catch {
    return false;
  }
  await inSteps(PRELOADED_LANGUAGES.map((language) => () => module.prepareLanguage(language)));
  return true;
}

/** The loader's state now. */
export const markdownState = (): MarkdownState => state;

/** Calls `listener` whenever the state changes; returns how to stop. */
export function subscribeMarkdown(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
