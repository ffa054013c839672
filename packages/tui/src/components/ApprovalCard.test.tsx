import { describe, expect, it } from 'vitest';
import { insideBorder, overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { approvalPrompt } from '../testing/viewFixtures.ts';
import { ApprovalCard } from './ApprovalCard.tsx';

const COMMAND = [
  '# clean the build',
  'cd /srv/app',
  ...Array.from({ length: 30 }, (_, i) => `echo step-${i + 3} && touch /tmp/file-${i + 3}.log`),
  'rm -rf /srv/data/*  # wipe everything the service has stored so far',
  'echo done',
].join('\n');
const FINDINGS = [
  { level: 'hardline' as const, rule: 'delete.root', target: '/srv/data', why: 'deletes everything the service has stored', line: 33 },
  { level: 'dangerous' as const, rule: 'shell.lookalike', target: 'command line', why: 'uses ＇ (U+FF07), which the shell does not treat as a quote' },
];
const card = approvalPrompt({ command: COMMAND, findings: FINDINGS });
const DIFF = '--- a/main.ts\n+++ b/main.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n keep();\n';
const fileChange = approvalPrompt({ tool_name: 'write_file', command: 'write /srv/app/main.ts', description: 'overwrites a file outside the working tree', diff: DIFF });

describe('ApprovalCard', () => {
  it('shows the tool, every finding, the line it names among the first lines, and the choices with Deny selected, in its rows', () => {
    const rows = renderRows(<ApprovalCard prompt={card} queued={2} width={80} maxRows={20} />, 80);
    expect(rows).toHaveLength(20);
    expect(rows[1]).toContain('⚠ approval needed · terminal');
    expect(rows[2]).toContain('⛔ delete.root · /srv/data — deletes everything the service has stored');
    // A lookalike quote is spelled out, so the command cannot pass for quoted.
    expect(rows[3]).toContain('⚠ shell.lookalike · command line — uses ⟨U+FF07⟩ (U+FF07), which the shell');
    const body = rows.join('\n');
    expect(body).toContain(' 1│ # clean the build');
    expect(body).toContain('33│ rm -rf /srv/data/*  # wipe everything the service has stored so far');
    expect(body).toMatch(/… \d+ lines/);
    expect(body).not.toContain('echo step-10 ');
    expect(insideBorder(rows).slice(-5, -1)).toEqual(['  1 Allow once', '  2 Allow for this session', '  3 Always allow (saved to config)', '❯ 4 Deny']);
    expect(rows.at(-2)).toContain('↑↓/1–4 pick · Enter confirm · Esc deny · v full command · 2 more waiting');
  });

  it('at 40 columns cuts the long lines with "…" inside the border, the findings and the line holding one still there', () => {
    const rows = renderRows(<ApprovalCard prompt={card} queued={0} width={40} maxRows={20} />, 40);
    expect(overflowing(rows, 40)).toEqual([]);
    expect(rows.every((row) => /^[║╔╚].*[║╗╝]$/.test(row))).toBe(true);
    const body = rows.join('\n');
    expect(body).toContain('⛔ delete.root · /srv/data —');
    expect(body).toContain('⚠ shell.lookalike · command line —');
    expect(body).toMatch(/33│ rm -rf \/srv\/data\/\* {2}# wipe ev…/);
    expect(body).toContain('❯ 4 Deny');
    expect(body).toContain('↑↓/1–4 pick · Enter confirm · Esc d…');
  });

  it('colours a hardline finding and its line red and bold, a dangerous one yellow, a marker inverse magenta, the selected choice by what it does', () => {
    const styled = renderStyled(<ApprovalCard prompt={card} queued={0} width={80} maxRows={20} />, 80);
    expect(stylesAt(styled, '⛔ delete.root')).toEqual(['bold', 'red']);
    expect(stylesAt(styled, '33│')).toEqual(['bold', 'red']);
    expect(stylesAt(styled, ' 1│')).toEqual(['dim']);
    expect(stylesAt(styled, '⚠ shell.lookalike')).toEqual(['yellow']);
    expect(stylesAt(styled, '⟨U+FF07⟩')).toEqual(['inverse', 'magenta']);
    expect(stylesAt(styled, '❯ 4 Deny')).toEqual(['bold', 'red']);
    expect(stylesAt(styled, '1 Allow once')).toEqual(['dim']);
    const once = renderStyled(<ApprovalCard prompt={{ ...card, selected: 0 }} queued={0} width={80} maxRows={20} />, 80);
    expect(stylesAt(once, '❯ 1 Allow once')).toEqual(['bold', 'green']);
  });

  it('in the command view shows the whole command paged, the rows of a line holding a finding marked, and no choices', () => {
    const rows = renderRows(<ApprovalCard prompt={{ ...card, pager: { top: 28 } }} queued={0} width={60} maxRows={14} />, 60);
    expect(rows).toHaveLength(14);
    const body = rows.join('\n');
    // The line is wrapped here, not cut: the view is there to read all of it.
    expect(body).toContain('› rm -rf /srv/data/*  # wipe everything the service has');
    expect(body).toContain('› stored so far');
    expect(body).toContain('  echo done');
    expect(rows.at(-2)).toContain('lines 29–34 of 34 · ↑↓ PgUp/PgDn scroll · v/Esc back');
    expect(body).not.toContain('Allow once');
  });

  it('for a file change shows why it asks and the diff, coloured by line', () => {
    const rows = renderRows(<ApprovalCard prompt={fileChange} queued={0} width={60} maxRows={24} />, 60);
    const body = rows.join('\n');
    expect(body).toContain('⚠ approval needed · write_file');
    expect(body).toContain('overwrites a file outside the working tree');
    expect(body).toContain('write /srv/app/main.ts');
    expect(body).toContain('-const a = 1;');
    expect(body).toContain('+const a = 2;');
    const styled = renderStyled(<ApprovalCard prompt={fileChange} queued={0} width={60} maxRows={24} />, 60);
    expect(stylesAt(styled, '+const a = 2;')).toEqual(['green']);
    expect(stylesAt(styled, '-const a = 1;')).toEqual(['red']);
  });

  it('with no room for the diff says how long it is instead, and keeps the choices', () => {
    const rows = renderRows(<ApprovalCard prompt={fileChange} queued={0} width={60} maxRows={11} />, 60);
    expect(rows).toHaveLength(11);
    const body = rows.join('\n');
    expect(body).toContain('… a diff of 6 lines (no room to show it here)');
    expect(body).not.toContain('+const a = 2;');
    expect(body).toContain('❯ 4 Deny');
  });
});
