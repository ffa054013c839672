/**
 * Feeds the completion list: keeps the command catalog (and, once asked for, session titles and model
 * names) cached for the backend it came from, and filters synchronously on every composer change, so the
 * list always answers the text as it is at the moment of the key. Only `@path` asks the backend per text
 * (`complete.path`); its answer is dropped when the text moved on, and a Tab pressed meanwhile waits for it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { parseSlash, type CompletionResult } from '@hermes/rpc-server/protocol';
import { withLocalCommands } from '../commands/localCommands.ts';
import { filterCompletions, withSelection, type CompletionSources } from '../commands/completionFilter.ts';
import { applyCompletion, completionQuery, type CompletionQuery, type CompletionState } from '../commands/slashCompletion.ts';
import type { Key } from '../input/keyParser.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import type { SessionHost } from './sessionHost.ts';

/** The longest keys wait for a list's values (a healthy local backend answers in milliseconds). */
const HOLD_LIMIT_MS = 2_000;

export class CompletionController {
  /** Undefined while the list is closed. */
  readonly store: StoreApi<CompletionState | undefined> = createStore<CompletionState | undefined>(() => undefined);
  private sources: CompletionSources = { catalog: [], sessions: [], models: [] };
  /** The client the catalog was fetched from: a restarted backend gets a new one and a new fetch. */
  private catalogClient: HermesClient | undefined;
  /** Esc closed the list for this text; it reopens once the text changes. */
  private dismissedFor: string | undefined;
  /** Tab pressed while a path answer for this text was in flight: apply its first item when it lands. */
  private tabPendingFor: string | undefined;
  /** Fetches in flight, by the source they fill: keys that would act on that source's list wait for them. */
  private readonly loading = new Map<keyof CompletionSources, Promise<void>>();
  private lastArgumentCommand: string | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly host: SessionHost) {
    const offComposer = host.composer.subscribe((state, previous) => {
      if (state.draft !== previous.draft || state.cursor !== previous.cursor) this.refresh();
    });
    const offView = host.view.store.subscribe((state, previous) => {
      if (state.phase === 'ready' && (previous.phase !== 'ready' || state.sessionId !== previous.sessionId)) this.loadCatalog();
      // `/reload-plugins` answered: plugin commands may have come or gone.
      if (previous.commands?.some(isPluginReload) && !state.commands?.some(isPluginReload)) this.reloadCatalog();
    });
    this.unsubscribe = () => {
      offComposer();
      offView();
    };
  }

  get isOpen(): boolean {
    return this.store.getState() !== undefined;
  }

  select(state: CompletionState): void {
    if (this.isOpen) this.store.setState(state, true);
  }

  /** Esc: the list stays closed until the text changes. */
  dismiss(): void {
    this.dismissedFor = this.host.composer.getState().draft;
    this.close();
  }

  /** True when Tab should wait for a `complete.path` answer for the current text (none shown yet). */
  deferTab(): boolean {
    const query = completionQuery(this.host.composer.getState());
    if (query?.kind !== 'path' || this.isOpen) return false;
    this.tabPendingFor = query.text;
    return true;
  }

  /** Commands changed (`/reload-plugins`): fetch the catalog again. */
  reloadCatalog(): void {
    this.catalogClient = undefined;
    this.loadCatalog();
  }

  private loadCatalog(): void {
    const client = this.host.client();
    if (!client || client === this.catalogClient) return;
    this.catalogClient = client;
    const sessionId = this.host.view.store.getState().sessionId;
    this.track(
      'catalog',
      client.request('commands.catalog', sessionId ? { session_id: sessionId } : {}).then(
        ({ commands }) => {
          this.sources = { ...this.sources, catalog: withLocalCommands(commands) };
          this.refresh();
        },
        (error: unknown) => {
          if (this.catalogClient === client) this.catalogClient = undefined;
          this.host.logger.warn('commands.catalog failed', { error });
        },
      ),
    );
  }

  private track(source: keyof CompletionSources, loading: Promise<void>): void {
    this.loading.set(source, loading);
    void loading.finally(() => {
      if (this.loading.get(source) === loading) this.loading.delete(source);
    });
  }

  /**
   * A list key (Tab, Enter, ↑/↓) typed while the values its list is made of are on their way (`/he` Tab
   * right at startup, `/resume fix` Tab in one burst) must not act on the list without them: the promise
   * the caller holds such keys on, else undefined.
   */
  holdFor(key: Key): Promise<void> | undefined {
    if (this.loading.size === 0 || key.type !== 'key' || !['tab', 'enter', 'up', 'down'].includes(key.name)) return undefined;
    const query = completionQuery(this.host.composer.getState());
    if (query?.kind !== 'command' && query?.kind !== 'argument') return undefined;
    const source = query.kind === 'command' ? 'catalog' : query.command === 'resume' ? 'sessions' : query.command === 'model' ? 'models' : 'catalog';
    const loading = this.loading.get(source);
    if (!loading) return undefined;
    // A hung backend must not swallow the keyboard: past the limit the keys act on the list as it is.
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, HOLD_LIMIT_MS)));
    return Promise.race([loading, limit]).finally(() => clearTimeout(timer));
  }

  private close(): void {
    this.tabPendingFor = undefined;
    if (this.isOpen) this.store.setState(undefined, true);
  }

  private refresh(): void {
    const query = completionQuery(this.host.composer.getState());
    if (query === undefined) {
      this.dismissedFor = undefined;
      this.lastArgumentCommand = undefined;
      return this.close();
    }
    if (query.text === this.dismissedFor) return this.close();
    this.dismissedFor = undefined;
    if (query.kind === 'argument') this.fetchArgumentValues(query.command);
    this.lastArgumentCommand = query.kind === 'argument' ? query.command : undefined;
    if (query.kind === 'path') {
      // The old answer is for other text: hide it rather than let Tab act on it.
      if (this.store.getState()?.text !== query.text) this.store.setState(undefined, true);
      return this.askPath(query);
    }
    this.store.setState(filterCompletions(query, this.sources, this.store.getState()), true);
  }

  /** Session titles and model names, fetched when their command's argument list opens (they change). */
  private fetchArgumentValues(command: string): void {
    if (command === this.lastArgumentCommand) return;
    const client = this.host.client();
    if (!client) return;
    const failed = (error: unknown) => this.host.logger.warn(`completion values for /${command} failed`, { error });
    if (command === 'resume') {
      this.track('sessions', client.request('session.list', {}).then(({ sessions }) => {
        this.sources = { ...this.sources, sessions };
        this.refresh();
      }, failed));
    } else if (command === 'model') {
      this.track('models', client.request('model.options', {}).then(({ current, providers }) => {
        const ordered = [...providers].sort((a, b) => Number(b.id === current.provider) - Number(a.id === current.provider));
        this.sources = { ...this.sources, models: ordered.flatMap((provider) => provider.models.map((model) => `${provider.id}:${model}`)) };
        this.refresh();
      }, failed));
    }
  }

  private askPath(query: Extract<CompletionQuery, { kind: 'path' }>): void {
    const client = this.host.client();
    if (!client) return;
    client.request('complete.path', { word: query.word, cwd: this.host.cwd }).then(
      (answer) => this.acceptPath(query, answer),
      (error: unknown) => this.host.logger.warn('complete.path failed', { word: query.word, error }),
    );
  }

  private acceptPath(query: Extract<CompletionQuery, { kind: 'path' }>, answer: CompletionResult): void {
    const composer = this.host.composer.getState();
    // The composer moved on, or Esc closed the list: the answer is stale.
    if (composer.draft !== query.text || completionQuery(composer)?.kind !== 'path' || this.dismissedFor === query.text) return;
    const item = answer.items[0];
    if (this.tabPendingFor === query.text) {
      this.tabPendingFor = undefined;
      if (item) return this.host.composer.setState(applyCompletion(query.text, query.replaceFrom + answer.replace_from, item));
    }
    if (!item) return this.close();
    const next: CompletionState = {
      kind: 'path', text: query.text, items: answer.items, replaceFrom: query.replaceFrom + answer.replace_from, selected: 0, moved: false,
    };
    this.store.setState(withSelection(next, this.store.getState()), true);
  }

  dispose(): void {
    this.close();
    this.unsubscribe();
  }
}

function isPluginReload(command: string): boolean {
  return parseSlash(command)?.name === 'reload-plugins';
}
