import { describe, expect, it } from 'vitest';
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { commandLines, findingLines } from './findingLines.ts';

const finding = (level: ApprovalFinding['level'], line?: number): ApprovalFinding => ({ level, rule: 'r', target: 't', why: 'w', ...(line === undefined ? {} : { line }) });

describe('findingLines', () => {
  it('lists each line once, in order, with the gravest level found on it', () => {
    const lines = findingLines([finding('dangerous', 35), finding('dangerous', 2), finding('hardline', 35), finding('dangerous', 35)], 40);
    expect([...lines]).toEqual([
      [2, 'dangerous'],
      [35, 'hardline'],
    ]);
  });

  it('anchors nothing for a finding without a line or with a line the command does not have', () => {
    expect([...findingLines([finding('dangerous'), finding('dangerous', 0), finding('dangerous', 41), finding('dangerous', 1.5)], 40)]).toEqual([]);
  });
});

describe('commandLines', () => {
  it('splits the command where the gate does, and marks what would hide in a line', () => {
    expect(commandLines('echo ＇\r\nrm -rf x\u200B')).toEqual(['echo ⟨U+FF07⟩', 'rm -rf x⟨U+200B⟩']);
  });
});
