import { describe, expect, it } from 'vitest';
import { formatVerdict, parseCheckLine, verdictLine } from './verdictText.ts';

describe('formatVerdict', () => {
  it('prints the level, then one aligned line per finding', () => {
    const text = formatVerdict({
      level: 'hardline',
      findings: [
        { level: 'hardline', rule: 'delete.recursive', target: 'home', why: 'rm -rf deletes /home/alice' },
        { level: 'dangerous', rule: 'net.pipe', target: 'shell', why: 'curl output runs in sh' },
      ],
    });
    expect(text).toBe(
      'hardline\n' +
        '  hardline   delete.recursive  home   rm -rf deletes /home/alice\n' +
        '  dangerous  net.pipe          shell  curl output runs in sh\n',
    );
  });

  it('prints only the level when nothing was found', () => {
    expect(formatVerdict({ level: 'safe', findings: [] })).toBe('safe\n');
  });

  it('keeps a finding on one line and marks control and lookalike characters', () => {
    const text = formatVerdict({
      level: 'dangerous',
      findings: [{ level: 'dangerous', rule: 'r', target: 't', why: 'runs `ls\nrm -rf x` \u001b[2J \uff07' }],
    });
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toContain('runs `ls⟨LF⟩rm -rf x` ⟨ESC⟩[2J ⟨U+FF07⟩');
    expect(text).not.toMatch(/\u001b/);
  });
});

describe('parseCheckLine', () => {
  it('passes command, write_path and cwd on; the backend checks them', () => {
    expect(parseCheckLine('{"command": "ls", "cwd": "/p", "extra": 1}')).toEqual({ params: { command: 'ls', cwd: '/p' } });
    expect(parseCheckLine('{"write_path": 3}')).toEqual({ params: { write_path: 3 } });
  });

  it('says why a line is not a JSON object', () => {
    expect(parseCheckLine('rm -rf /')).toEqual({ error: expect.stringMatching(/^not JSON/) });
    expect(parseCheckLine('"ls"')).toEqual({ error: expect.stringMatching(/one JSON object/) });
    expect(parseCheckLine('null')).toEqual({ error: expect.stringMatching(/one JSON object/) });
  });
});

describe('verdictLine', () => {
  it('keeps the wire fields only, level first, and the line when known', () => {
    const finding = { level: 'dangerous' as const, rule: 'r', target: 't', why: 'w', internal: true };
    expect(verdictLine({ level: 'dangerous', findings: [finding, { ...finding, line: 3 }] })).toBe(
      '{"level":"dangerous","findings":[{"level":"dangerous","rule":"r","target":"t","why":"w"},{"level":"dangerous","rule":"r","target":"t","why":"w","line":3}]}',
    );
  });
});
