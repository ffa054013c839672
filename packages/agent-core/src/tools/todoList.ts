// A todo item crosses the wire in `todo.updated`: the contract defines it.
import { TODO_STATUSES, type TodoItem } from '../contract/events.ts';

export { TODO_STATUSES, type TodoItem };
export type TodoStatus = TodoItem['status'];

/** An item as the model may send it when merging: only `id` is needed to update an existing one. */
export interface TodoPatch {
  id: string;
  content?: string;
  status?: TodoStatus;
}

export type TodoListener = (todos: TodoItem[], revision: number) => void;

/** One session's task list. `revision` counts changes so the UI can drop stale updates. */
export class TodoList {
  private items: TodoItem[] = [];
  private listeners = new Set<TodoListener>();
  revision = 0;

  read(): TodoItem[] {
    return this.items.map((item) => ({ ...item }));
  }

  /**
   * `merge: false` replaces the list. `merge: true` updates items by id (only the fields given)
   * and appends new ones. Throws, changing nothing, if an item is malformed.
   */
  write(patches: TodoPatch[], merge: boolean): TodoItem[] {
    const next = merge ? this.read() : [];
    const seen = new Set<string>();
    for (const [index, patch] of patches.entries()) {
      const where = `todos[${index}]`;
      if (typeof patch?.id !== 'string' || patch.id.trim() === '') throw new Error(`${where}: "id" must be a non-empty string`);
      if (seen.has(patch.id)) throw new Error(`${where}: id "${patch.id}" appears twice`);
      seen.add(patch.id);
      if (patch.status !== undefined && !TODO_STATUSES.includes(patch.status)) {
        throw new Error(`${where}: "status" must be one of ${TODO_STATUSES.join(', ')} (found ${JSON.stringify(patch.status)})`);
      }
      if (patch.content !== undefined && typeof patch.content !== 'string') throw new Error(`${where}: "content" must be a string`);
      const existing = next.find((item) => item.id === patch.id);
      if (existing) {
        if (patch.content !== undefined) existing.content = patch.content;
        if (patch.status !== undefined) existing.status = patch.status;
        continue;
      }
      if (patch.content === undefined || patch.content.trim() === '') {
        throw new Error(`${where}: a new item needs "content"${merge ? ` (no item has id "${patch.id}")` : ''}`);
      }
      next.push({ id: patch.id, content: patch.content, status: patch.status ?? 'pending' });
    }
    this.items = next;
    this.revision += 1;
    const snapshot = this.read();
    for (const listener of this.listeners) listener(snapshot, this.revision);
    return snapshot;
  }

  /** Calls `listener` after every write; returns the unsubscribe function. */
  onChange(listener: TodoListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
