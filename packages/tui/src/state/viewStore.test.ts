import { describe, expect, it } from 'vitest';
import { openResult } from '../testing/sessionFixtures.ts';
import { createViewStore } from './viewStore.ts';

const userTexts = (view: ReturnType<typeof createViewStore>) =>
  view.store.getState().transcript.flatMap((item) => (item.kind === 'user' || item.kind === 'notice' ? [`${item.kind}: ${item.text}`] : []));

function openView() {
  const view = createViewStore();
  view.dispatch({ type: 'local.sessionOpened', result: openResult('s', []) });
  return view;
}

describe('view store: dispatchSoon', () => {
  it('applies the input once the turn of the event loop is over, not at once', async () => {
    const view = openView();
    view.dispatchSoon({ type: 'local.submitted', text: 'hello' });
    expect(view.hasSoon()).toBe(true);
    expect(view.store.getState().busy).toBe(false);
    expect(userTexts(view)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(view.hasSoon()).toBe(false);
    expect(view.store.getState().busy).toBe(true);
    expect(userTexts(view)).toEqual(['user: hello']);
  });

  it('applies what waits before any later dispatch, so the order of updates is kept', () => {
    const view = openView();
    view.dispatchSoon({ type: 'local.submitted', text: 'first' });
    view.dispatch({ type: 'local.notice', level: 'info', text: 'second' });
    expect(view.hasSoon()).toBe(false);
    expect(userTexts(view)).toEqual(['user: first', 'notice: second']);
  });

  it('drops what waits when disposed', async () => {
    const view = openView();
    view.dispatchSoon({ type: 'local.submitted', text: 'never' });
    view.dispose();
    await new Promise((resolve) => setImmediate(resolve));
    expect(userTexts(view)).toEqual([]);
  });
});
