/**
 * Loads the markdown renderer on first need, off the startup path: `marked` and the grammars are a
 * dynamic import (a separate chunk in the bundle), started when the first assistant text must show.
 * Until it has loaded, assistant text shows plain; if it cannot load, it stays plain. Once loaded it
 * draws a sample reply, so the first real one does not pay for compiling the renderer's code.
 */
export type MarkdownModule = typeof import('./renderMarkdown.ts');

export type MarkdownState = { status: 'idle' | 'loading' } | { status: 'ready'; module: MarkdownModule } | { status: 'failed'; error: Error };

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
        setImmediate(() => {
          try {
            module.warmUp();
          } catch (cause) {
            reportFailure?.(cause instanceof Error ? cause : new Error(String(cause)));
          }
        });
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

/** The loader's state now. */
export const markdownState = (): MarkdownState => state;

/** Calls `listener` whenever the state changes; returns how to stop. */
export function subscribeMarkdown(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
