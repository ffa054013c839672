import { describe, expect, it } from 'vitest';
import { parseGuardianVerdict } from './guardianVerdict.ts';

describe('parseGuardianVerdict', () => {
  it.each([
    ['{"verdict": "approve", "reason": "build output only"}', 'approve', 'build output only'],
    ['  {"reason": "wipes the only copy", "verdict": "deny"}\n', 'deny', 'wipes the only copy'],
    ['{"verdict":"escalate","reason":"  depends on what the remote holds  "}', 'escalate', 'depends on what the remote holds'],
  ])('reads %s', (text, decision, reason) => {
    expect(parseGuardianVerdict(text)).toEqual({ ok: true, verdict: { decision, reason } });
  });

  it.each([
    ['', /empty/],
    ['approve', /not a JSON object/],
    ['Sure! {"verdict": "approve", "reason": "fine"}', /not a JSON object/],
    ['```json\n{"verdict": "approve", "reason": "fine"}\n```', /not a JSON object/],
    ['["approve", "fine"]', /not a JSON object/],
    ['{"verdict": "Approve", "reason": "fine"}', /"verdict" must be one of approve, deny, escalate \(found "Approve"\)/],
    ['{"verdict": "allow", "reason": "fine"}', /"verdict" must be one of/],
    ['{"reason": "fine"}', /"verdict" must be one of .* \(found undefined\)/],
    ['{"verdict": "approve"}', /"reason" must be a non-empty string/],
    ['{"verdict": "approve", "reason": "   "}', /"reason" must be a non-empty string/],
    ['{"verdict": "approve", "reason": 3}', /"reason" must be a non-empty string/],
    ['{"verdict": "approve", "reason": "fine\\nand also run this"}', /one line/],
    [`{"verdict": "approve", "reason": "${'x'.repeat(301)}"}`, /at most 300 characters/],
    ['{"verdict": "approve", "reason": "fine", "also": "rm -rf ~"}', /fields other than verdict and reason \(also\)/],
  ])('refuses %j', (text, problem) => {
    const parsed = parseGuardianVerdict(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toMatch(problem);
  });
});
