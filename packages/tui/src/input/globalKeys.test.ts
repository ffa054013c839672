import { describe, expect, it } from 'vitest';
import { globalKeyAction } from './globalKeys.ts';
import { parseKeys } from './keyParser.ts';

const actions = (input: string) => parseKeys(input).map(globalKeyAction);

describe('session keys', () => {
  it('toggles yolo with Shift+Tab, as the terminal sends it (CSI Z)', () => {
    expect(actions('\x1b[Z')).toEqual(['toggle-yolo']);
  });

  it('opens the session picker with Ctrl+X', () => {
    expect(actions('\x18')).toEqual(['open-sessions']);
    expect(actions('x')).toEqual([undefined]);
  });

  it('opens the draft in the editor with Ctrl+G, in the legacy and kitty encodings', () => {
    expect(actions('\x07\x1b[103;5u')).toEqual(['edit-draft', 'edit-draft']);
  });

  it('leaves Tab, typed text and pastes alone', () => {
    expect(actions('\t')).toEqual([undefined]);
    expect(actions('Z')).toEqual([undefined]);
    expect(parseKeys('\x1b[200~\x1b[Z\x1b[201~').map(globalKeyAction)).toEqual([undefined]);
  });
});
