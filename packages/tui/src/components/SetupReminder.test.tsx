import { describe, expect, it } from 'vitest';
import { renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { SetupReminder, setupReminderRows } from './SetupReminder.tsx';

describe('SetupReminder', () => {
  it('is one row at 80 columns and wraps, whole, at 40, in the rows it says it takes', () => {
    expect(renderRows(<SetupReminder width={80} />, 80)).toEqual(['⚠ No model configured: see the setup instructions above, or run hermes --demo']);
    const narrow = renderRows(<SetupReminder width={40} />, 40);
    expect(narrow).toEqual(['⚠ No model configured: see the setup', 'instructions above, or run hermes --demo']);
    expect(narrow).toHaveLength(setupReminderRows(40));
    // At 60 it wraps too, never cut with "…".
    expect(renderRows(<SetupReminder width={60} />, 60)).toEqual(['⚠ No model configured: see the setup instructions above, or', 'run hermes --demo']);
    expect(stylesAt(renderStyled(<SetupReminder width={40} />, 40), 'instructions')).toEqual(['yellow']);
  });
});
