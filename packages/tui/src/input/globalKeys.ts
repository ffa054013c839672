/**
 * Keys that act on the session rather than on the draft, kept as data so help screens and tests read
 * the same table. A card on screen takes every key first; these apply only when the composer has focus.
 */
import { describeKey, type Key } from './keyParser.ts';

export type GlobalAction = 'toggle-yolo' | 'open-sessions' | 'edit-draft' | 'toggle-tool-details';

export interface GlobalBinding {
  /** As `describeKey` names it, e.g. `shift+tab`. */
  key: string;
  action: GlobalAction;
  description: string;
}

export const GLOBAL_KEYS: readonly GlobalBinding[] = [
  { key: 'shift+tab', action: 'toggle-yolo', description: 'yolo on/off for this session: dangerous commands run without asking' },
  { key: 'ctrl+x', action: 'open-sessions', description: 'pick a saved session to resume (as /sessions)' },
  { key: 'ctrl+g', action: 'edit-draft', description: 'edit the draft in $EDITOR (else $VISUAL, else vi)' },
  { key: 'ctrl+o', action: 'toggle-tool-details', description: "the newest tool's output, and tool output expanded from now on (again: collapsed)" },
];

/** The session action bound to `key`, if any. */
export function globalKeyAction(key: Key): GlobalAction | undefined {
  if (key.type !== 'key') return undefined;
  const name = describeKey(key);
  return GLOBAL_KEYS.find((binding) => binding.key === name)?.action;
}
