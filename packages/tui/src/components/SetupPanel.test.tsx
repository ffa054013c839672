import { describe, expect, it } from 'vitest';
import { insideBorder, overflowing, renderRows } from '../testing/renderFrame.ts';
import { SetupPanel } from './SetupPanel.tsx';

const HINT = 'Set OPENAI_API_KEY in ~/.hermes/.env, or choose a provider with hermes --provider';

describe('SetupPanel', () => {
  it('says no model is configured, how to configure one, and how to try hermes without a key', () => {
    expect(insideBorder(renderRows(<SetupPanel hint={HINT} />, 100).slice(1))).toEqual([
      'No model is configured: hermes cannot answer yet',
      HINT,
      'To try hermes without a key: hermes --demo',
    ]);
  });

  it("uses the config's own title when the config is at fault, and leaves out the demo line when the hint has it", () => {
    const rows = insideBorder(renderRows(<SetupPanel hint="or run hermes --demo" title="config.yaml names no model" />, 80).slice(1));
    expect(rows).toEqual(['config.yaml names no model', 'or run hermes --demo']);
  });

  it('wraps the hint inside its border at 40 columns', () => {
    const rows = renderRows(<SetupPanel hint={HINT} />, 40);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(insideBorder(rows.slice(1)).join(' ').replace(/\s+/g, ' ')).toContain('choose a provider with hermes --provider');
  });
});
