import { STARTUP_ERROR_PREFIX } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import { insideBorder, overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { BackendErrorPanel, errorPanelRows, STDERR_LINES_SHOWN } from './BackendErrorPanel.tsx';

const LOG = '/home/u/.hermes/logs/tui.log';

describe('BackendErrorPanel', () => {
  it('leads with the startup error the backend wrote, then what else it wrote (no stack frames), then where to read more', () => {
    const stderr = ['warming up', `${STARTUP_ERROR_PREFIX}config.yaml line 3: model must be a string; write model: "name"`, 'Error: boom', '    at main (index.js:1:1)', ''];
    const props = { message: 'the backend exited with code 1', stderrTail: stderr, logFile: LOG, width: 80 };
    const rows = renderRows(<BackendErrorPanel {...props} />, 80);
    // Its top margin, then the box.
    expect(rows[0]).toBe('');
    expect(insideBorder(rows.slice(1))).toEqual([
      'hermes could not start: config.yaml line 3: model must be a string; write',
      'model: "name"',
      'last lines it wrote to stderr:',
      'warming up',
      'Error: boom',
      `More in ${LOG}. Press Ctrl+C twice to exit.`,
    ]);
    expect(rows).toHaveLength(errorPanelRows(props.message, stderr, LOG, 80));
    const styled = renderStyled(<BackendErrorPanel {...props} />, 80);
    expect(stylesAt(styled, 'hermes could not start')).toEqual(['bold', 'red']);
    expect(stylesAt(styled, 'last lines')).toEqual(['dim']);
  });

  it('at 40 columns wraps everything inside the border and counts its rows exactly; keeps only the last lines of a long tail', () => {
    const stderr = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of what the backend wrote before it died`);
    const props = { message: 'the backend exited with code 1', stderrTail: stderr, logFile: LOG, width: 40 };
    const rows = renderRows(<BackendErrorPanel {...props} />, 40);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(rows).toHaveLength(errorPanelRows(props.message, stderr, LOG, 40));
    const text = insideBorder(rows.slice(1));
    expect(text[0]).toBe('the backend exited with code 1');
    const tail = text.slice(2, 2 + STDERR_LINES_SHOWN);
    expect(tail.join(' ')).toContain('line 30 of what the backend wrote');
    expect(text.join(' ')).not.toContain('line 20 ');
  });
});
