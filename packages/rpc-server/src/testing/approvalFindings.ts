import { expect } from 'vitest';
import type { ApprovalFinding } from '../protocol/index.ts';

/**
 * Findings as the wire carries them: at least one, each a plain {level, rule, target, why} object (and
 * a `line` from 1 where the command has several), level dangerous or hardline, the words non-empty.
 */
export function expectWireFindings(findings: readonly ApprovalFinding[]): void {
  expect(findings.length).toBeGreaterThan(0);
  for (const finding of findings) {
    expect(Object.keys(finding).filter((k) => k !== 'line').sort()).toEqual(['level', 'rule', 'target', 'why']);
    if ('line' in finding) expect(finding.line).toBeGreaterThanOrEqual(1);
    const words = expect.stringMatching(/\S/);
    expect(finding).toMatchObject({ level: expect.stringMatching(/^(dangerous|hardline)$/), rule: words, target: words, why: words });
  }
}
