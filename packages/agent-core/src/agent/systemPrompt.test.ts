import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from './systemPrompt.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const dir = (files: Record<string, string>) => {
  const d = tempDir('hermes-prompt-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(d, name), text);
  return d;
};
const now = new Date('2026-11-30T10:00:00Z');

describe('buildSystemPrompt', () => {
  it('names the tools, the working directory and the date', () => {
    const cwd = dir({});
    const prompt = buildSystemPrompt({ cwd, toolNames: ['read_file', 'terminal'], now });
    expect(prompt).toContain('Tools available: read_file, terminal.');
    expect(prompt).toContain(`Working directory: ${cwd}`);
    expect(prompt).toContain('Date: 2026-11-30');
  });

  it('includes HERMES.md, preferred over AGENTS.md', () => {
    const prompt = buildSystemPrompt({ cwd: dir({ 'HERMES.md': 'Use pnpm.', 'AGENTS.md': 'Use npm.' }), toolNames: [], now });
    expect(prompt).toContain('Project instructions (HERMES.md):\nUse pnpm.');
    expect(prompt).not.toContain('Use npm.');
  });

  it('falls back to AGENTS.md and cuts a huge file', () => {
    const prompt = buildSystemPrompt({ cwd: dir({ 'AGENTS.md': 'x'.repeat(30_000) }), toolNames: [], now });
    expect(prompt).toContain('Project instructions (AGENTS.md):');
    expect(prompt).toContain('[… AGENTS.md cut at 20000 characters]');
    expect(prompt.length).toBeLessThan(21_000);
  });

  it('is identical when built twice for the same session inputs (prompt caches hit)', () => {
    const cwd = dir({ 'HERMES.md': 'rules' });
    expect(buildSystemPrompt({ cwd, toolNames: ['a'], now })).toBe(buildSystemPrompt({ cwd, toolNames: ['a'], now }));
  });
});
