import { describe, expect, it } from 'vitest';
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { applyApprovalKey, type ApprovalCardState } from '../input/approvalKeys.ts';
import { parseKeys } from '../input/keyParser.ts';
import { approvalLayout, clarifyLayout, COMMAND_MAX_ROWS, commandViewLayout, findingRow, type ApprovalText } from './cardLayout.ts';
import { pagerPosition } from './commandPager.ts';

const ALL = ['once', 'session', 'always', 'deny'] as const;
const longCommand = Array.from({ length: 40 }, (_, i) => `echo line-${i}`).join('\n');
const longDiff = ['--- a/f', '+++ b/f', '@@ -1,30 +1,30 @@', ...Array.from({ length: 30 }, (_, i) => `+added ${i}`)].join('\n');
/** 200 lines; the dangerous one is far down. */
const hugeCommand = Array.from({ length: 200 }, (_, i) => (i === 180 ? 'rm -rf /srv/data' : `echo step-${i + 1}`)).join('\n');

const FINDINGS: ApprovalFinding[] = [
  { level: 'hardline', rule: 'write.protected', target: '~/.ssh', why: 'overwrites ~/.ssh/authorized_keys' },
  { level: 'dangerous', rule: 'delete.recursive', target: 'outside the working tree', why: 'deletes /srv/data and everything in it' },
  { level: 'dangerous', rule: 'net.pipe_to_shell', target: 'remote code', why: 'runs what curl downloads from example.com' },
];

/** The rows the findings above must get (they are plain ASCII, so nothing in them is marked). */
const rowsOf = (findings: ApprovalFinding[]) => findings.map(({ level, rule, target, why }) => ({ level, text: `${rule} · ${target} — ${why}` }));
const text = (overrides: Partial<ApprovalText> = {}): ApprovalText => ({ description: 'x', command: 'x', findings: [], ...overrides });

/**
 * The rows App gives a card with an empty prompt: the terminal's rows less the prompt and its rule
 * (2), its margin and the status line (2), the safety rows (2) and the card's own margin (1).
 */
const CARD_ROWS_AT = { '60x20': { width: 60, maxRows: 13 }, '80x24': { width: 80, maxRows: 17 } };

describe('approvalLayout', () => {
  it('shows a short command whole', () => {
    const layout = approvalLayout(text({ description: 'recursive delete', command: 'rm -rf build' }), [...ALL], 80, 40);
    expect(layout.command).toEqual({ shown: ['rm -rf build'], hidden: 0 });
  });

  it('folds a long command after a few rows and counts what it hides', () => {
    const layout = approvalLayout(text({ command: longCommand }), [...ALL], 80, 40);
    expect(layout.command.shown).toHaveLength(COMMAND_MAX_ROWS - 1);
    expect(layout.command.hidden).toBe(40 - (COMMAND_MAX_ROWS - 1));
  });

  it('stays within the rows it is given, even with a long command and diff in a short terminal', () => {
    for (const maxRows of [14, 18, 24, 40]) {
      const layout = approvalLayout(text({ description: 'overwrites a file', command: longCommand, diff: longDiff }), [...ALL], 60, maxRows);
      expect(layout.rows).toBeLessThanOrEqual(maxRows);
    }
    const roomy = approvalLayout(text({ description: 'd', command: 'x', diff: longDiff }), [...ALL], 60, 40);
    expect(roomy.diff?.hidden).toBeGreaterThan(0);
    expect(roomy.diff?.shown[0]).toBe('--- a/f');
  });

  it('keeps every finding on the card at 60×20 and 80×24 with a 200-line command and a diff, folding those instead', () => {
    for (const [size, { width, maxRows }] of Object.entries(CARD_ROWS_AT)) {
      for (let count = 1; count <= FINDINGS.length; count++) {
        const findings = FINDINGS.slice(0, count);
        const layout = approvalLayout(text({ description: 'deletes data', command: hugeCommand, findings, diff: longDiff }), [...ALL], width, maxRows);
        expect(layout.findings, `${size}, ${count} findings`).toEqual(rowsOf(findings));
        expect(layout.rows, `${size}, ${count} findings`).toBeLessThanOrEqual(maxRows);
        // The command and the diff are folded, never dropped: at least their "+N more" rows remain.
        expect(layout.command.shown.length + layout.command.hidden).toBe(200);
        expect(layout.diff).toBeDefined();
      }
    }
  });

  it('gives spare rows to the start of the command before the blank rows', () => {
    const { width, maxRows } = CARD_ROWS_AT['60x20'];
    const layout = approvalLayout(text({ description: 'deletes data', command: hugeCommand, findings: FINDINGS.slice(0, 2) }), [...ALL], width, maxRows);
    expect(layout.command.shown).toEqual(['echo step-1']);
    expect(layout.gaps).toEqual({ command: false, diff: false, choices: true });
    expect(layout.rows).toBe(maxRows);
  });

  it('shows the description only when there are no findings, which it would only repeat', () => {
    const { width, maxRows } = CARD_ROWS_AT['60x20'];
    expect(approvalLayout(text({ description: 'deletes data', findings: FINDINGS.slice(0, 1) }), [...ALL], width, maxRows).description).toEqual([]);
    expect(approvalLayout(text({ description: 'deletes data' }), [...ALL], width, maxRows).description).toEqual(['deletes data']);
  });

  it('shows all findings even when they alone need more rows than there are, each on one row', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ ...FINDINGS[1]!, target: `target-${i}` }));
    const layout = approvalLayout(text({ command: hugeCommand, findings: many, diff: longDiff }), [...ALL], 60, 13);
    expect(layout.findings).toHaveLength(12);
    // Everything else is down to its least: one row of command, one of diff, no description or blank rows.
    expect(layout.rows).toBe(2 + 1 + 12 + 1 + 1 + ALL.length + 1);
    expect(layout.description).toEqual([]);
  });

  it('writes a finding as rule · target — why, with its hidden characters marked', () => {
    expect(findingRow(FINDINGS[1]!)).toBe('delete.recursive · outside the working tree — deletes /srv/data and everything in it');
    expect(findingRow({ level: 'dangerous', rule: 'exec', target: 'x', why: 'runs ＇x\u200B＇\nnext' })).toBe(
      'exec · x — runs ⟨U+FF07⟩x⟨U+200B⟩⟨U+FF07⟩⟨LF⟩next',
    );
  });

  it('marks lookalikes in the command on the card', () => {
    const layout = approvalLayout(text({ command: 'echo ＇; rm -rf DIR; echo ＇' }), [...ALL], 80, 24);
    expect(layout.command.shown).toEqual(['echo ⟨U+FF07⟩; rm -rf DIR; echo ⟨U+FF07⟩']);
  });

  it('cuts a long description with an ellipsis rather than a row of its own', () => {
    const description = Array.from({ length: 30 }, () => 'word').join(' ');
    const layout = approvalLayout(text({ description, command: hugeCommand }), [...ALL], 40, 14);
    expect(layout.description.length).toBeGreaterThan(0);
    expect(layout.description.at(-1)).toMatch(/ …$/);
  });
});

describe('commandViewLayout', () => {
  it('pages with PgDn from the top to the last line of a 200-line command, findings still on the card', () => {
    for (const { width, maxRows } of Object.values(CARD_ROWS_AT)) {
      const subject = text({ command: hugeCommand, findings: FINDINGS });
      let card: ApprovalCardState = { selected: 3, pager: { top: 0 } };
      let view = commandViewLayout(subject, width, maxRows, 0);
      expect(view.findings).toEqual(rowsOf(FINDINGS));
      expect(view.window.rows[0]).toBe('echo step-1');
      const seen = new Set(view.window.rows);
      for (let presses = 0; presses < 200 && view.window.lastLine < 200; presses++) {
        card = applyApprovalKey([...ALL], card, parseKeys('\x1b[6~')[0]!, view);
        view = commandViewLayout(subject, width, maxRows, card.pager!.top);
        for (const row of view.window.rows) seen.add(row);
        expect(view.rows).toBeLessThanOrEqual(maxRows);
      }
      expect(view.window.rows.at(-1)).toBe('echo step-200');
      expect(pagerPosition(view.window)).toMatch(/^lines \d+–200 of 200$/);
      // Paging skipped nothing: every line of the command was on screen at some point.
      expect(hugeCommand.split('\n').every((line) => seen.has(line))).toBe(true);
    }
  });

  it('wraps a long line instead of cutting it', () => {
    const line = `curl ${'a'.repeat(150)}`;
    const view = commandViewLayout(text({ command: line }), 60, 13, 0);
    expect(view.window.rows.length).toBeGreaterThan(1);
    expect(view.window.rows.join('')).toBe(line.replace(' ', ''));
    expect(pagerPosition(view.window)).toBe('line 1 of 1');
  });
});

describe('clarifyLayout', () => {
  it('scrolls a long list so the selected option stays visible', () => {
    const layout = clarifyLayout('Pick one', 30, 25, 80, 14);
    expect(layout.rows).toBeLessThanOrEqual(14);
    expect(25).toBeGreaterThanOrEqual(layout.firstOption);
    expect(25).toBeLessThan(layout.firstOption + layout.optionRows);
  });

  it('shows every option when they fit', () => {
    expect(clarifyLayout('Which colour?', 3, 0, 80, 30)).toMatchObject({ firstOption: 0, optionRows: 3 });
  });
});
