import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadConfig } from './loadConfig.ts';
import { resolveModel } from './resolveModel.ts';
import { homeWith } from '../testing/tempHome.ts';

const home = (files: Record<string, string>) => homeWith(files, 'config');

describe('loadConfig', () => {
  it('reads model and agent settings and secrets from .env', () => {
    const dir = home({
      'config.yaml': 'model:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4\nagent:\n  max_turns: 12\n',
      '.env': 'OPENROUTER_API_KEY=sk-or-123\n# comment\n',
    });
    const loaded = loadConfig(dir);
    expect(loaded.problems).toEqual([]);
    expect(loaded.config.model).toEqual({ provider: 'openrouter', default: 'anthropic/claude-sonnet-4' });
    expect(loaded.config.agent.max_turns).toBe(12);
    expect(loaded.config.agent.api_max_retries).toBe(3);
    expect(loaded.dotenv).toEqual({ OPENROUTER_API_KEY: 'sk-or-123' });
  });

  it('reads lists: command_allowlist and toolsets', () => {
    const loaded = loadConfig(home({ 'config.yaml': 'command_allowlist:\n  - recursive delete\ntoolsets: [file, terminal]\n' }));
    expect(loaded.problems).toEqual([]);
    expect(loaded.config.command_allowlist).toEqual(['recursive delete']);
    expect(loaded.config.toolsets).toEqual(['file', 'terminal']);
  });

  it('accepts `model: name` as shorthand for model.default', () => {
    expect(loadConfig(home({ 'config.yaml': 'model: gpt-4o-mini\n' })).config.model.default).toBe('gpt-4o-mini');
  });

  it('names the file and line of invalid YAML and falls back to defaults', () => {
    const dir = home({ 'config.yaml': 'model:\n  provider: openai\n  default: [oops\nagent: {}\n' });
    const loaded = loadConfig(dir);
    expect(loaded.problems).toHaveLength(1);
    expect(formatProblem(loaded.problems[0]!)).toMatch(new RegExp(`^${path.join(dir, 'config.yaml')} line \\d+: is not valid YAML`));
    expect(loaded.config.model).toEqual({});
  });

  it('names the key, line and expectation of a wrong value', () => {
    const loaded = loadConfig(home({ 'config.yaml': 'model:\n  provider: openai\nagent:\n  max_turns: lots\n' }));
    expect(loaded.problems.map(formatProblem)).toEqual([expect.stringMatching(/line 4: `agent.max_turns` must be a whole number above 0 \(found "lots"\)/)]);
    expect(loaded.config.agent.max_turns).toBe(90);
    expect(loaded.config.model.provider).toBe('openai');
  });

  it('gives the line and column of a YAML syntax error, and the fix', () => {
    const dir = home({ 'config.yaml': 'agent:\n  max_turns: 5\nmodel:\n  provider: openai\n  default: gpt: 4o\n' });
    const [problem] = loadConfig(dir).problems;
    expect(problem).toMatchObject({ kind: 'syntax', line: 5 });
    expect(formatProblem(problem!)).toMatch(/config\.yaml line 5: is not valid YAML at column 12: Nested mappings.*Fix that line.*runs with default settings/);
  });

  it('warns about unknown keys with the nearest known key, top level and in sections, on their line', () => {
    const dir = home({
      'config.yaml': 'approvels:\n  mode: off\nagent:\n  max_turn: 5\n  max_turns: 7\nmax_retries: 3\nzzzzzz: 1\nstream_stall_timeout: 4\n',
    });
    const loaded = loadConfig(dir);
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'config.yaml')} line 1: unknown key \`approvels\` — did you mean \`approvals\`? (hermes ignores it)`,
      `${path.join(dir, 'config.yaml')} line 4: unknown key \`agent.max_turn\` — did you mean \`agent.max_turns\`? (hermes ignores it)`,
      `${path.join(dir, 'config.yaml')} line 6: unknown key \`max_retries\` (hermes ignores it)`,
      `${path.join(dir, 'config.yaml')} line 7: unknown key \`zzzzzz\` (hermes ignores it)`,
      `${path.join(dir, 'config.yaml')} line 8: unknown key \`stream_stall_timeout\` — did you mean \`agent.stream_stall_timeout\`? (hermes ignores it)`,
    ]);
    expect(loaded.problems.every((p) => p.kind === 'unknown_key')).toBe(true);
    // The known key next to the typo still applies; the typo changes nothing.
    expect(loaded.config.agent.max_turns).toBe(7);
    expect(loaded.config.approvals.mode).toBe('manual');
  });

  it('does not report Hermes keys that hermes reads elsewhere or does not implement', () => {
    const loaded = loadConfig(
      home({
        'config.yaml': [
          'plugins:\n  enabled: [a]\n  hook_callback_timeout: 30\n',
          'memory:\n  memory_enabled: true\n',
          'delegation:\n  max_iterations: 50\n',
          'display:\n  anything: goes\n',
          'terminal:\n  backend: local\n  timeout: 100\n',
          'approvals:\n  deny: []\n',
          'command_allowlist: []\n',
        ].join(''),
      }),
    );
    expect(loaded.problems).toEqual([]);
  });

  it('lists the Hermes keys it does not implement, once each, in file order (terminal.backend: local is what it does)', () => {
    const loaded = loadConfig(
      home({
        'config.yaml': [
          'display:\n  skin: mono\n',
          'agent:\n  max_turns: 40\n  max_verify_nudges: 2\n',
          'terminal:\n  backend: local\n  cwd: /srv\n',
          'auxiliary:\n  approval:\n    timeout: 5\n  compression:\n    model: x\n',
          'sessions:\n  idle_close: 60\n',
          'plugins:\n  entries: {}\n',
          'memory:\n  memory_enabled: true\n',
        ].join(''),
      }),
    );
    expect(loaded.notImplemented).toEqual(['display', 'agent.max_verify_nudges', 'terminal.cwd', 'auxiliary.compression', 'memory']);
    expect(loaded.problems).toEqual([]);
    const docker = loadConfig(home({ 'config.yaml': 'terminal:\n  backend: docker\n' }));
    expect(docker.notImplemented).toEqual(['terminal.backend']);
  });

  it.each([
    ['openrouter/anthropic/claude-sonnet-4', { provider: 'openrouter', default: 'anthropic/claude-sonnet-4' }],
    ['ollama/llama3.1:8b', { provider: 'ollama', default: 'llama3.1:8b' }],
    ['anthropic/claude-sonnet-4', { default: 'anthropic/claude-sonnet-4' }],
    ['gpt-4o', { default: 'gpt-4o' }],
  ])('reads `model: %s` as Hermes does', (text, model) => {
    expect(loadConfig(home({ 'config.yaml': `model: ${text}\n` })).config.model).toEqual(model);
  });

  it('says how to fix an unreadable config.yaml', () => {
    const dir = home({});
    fs.mkdirSync(path.join(dir, 'config.yaml'));
    const [problem] = loadConfig(dir).problems;
    expect(problem).toMatchObject({ kind: 'unreadable' });
    expect(formatProblem(problem!)).toMatch(/config\.yaml: is a folder, not a file\. Fix: move it aside/);
  });

  it('takes a config.yaml of only comments as empty, without a problem', () => {
    const loaded = loadConfig(home({ 'config.yaml': '# settings go here\n# model: gpt-4o\n' }));
    expect(loaded.problems).toEqual([]);
    expect(loaded.config.agent.max_turns).toBe(90);
  });

  it('names a section that is not a mapping, on its line, and keeps its defaults', () => {
    const dir = home({ 'config.yaml': 'approvals:\n  mode: off\nagent: [1, 2]\nterminal: 5\n' });
    const loaded = loadConfig(dir);
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${dir}/config.yaml line 3: \`agent\` must be a mapping of settings (agent:, then indented key: value lines), found [1,2]; its settings keep their defaults`,
      `${dir}/config.yaml line 4: \`terminal\` must be a mapping of settings (terminal:, then indented key: value lines), found 5; its settings keep their defaults`,
    ]);
    expect(loaded.config.agent.max_turns).toBe(90);
    expect(loaded.config.approvals.mode).toBe('off');
  });

  it('names the line of bytes that are not UTF-8, in config.yaml and .env', () => {
    const dir = home({});
    fs.writeFileSync(path.join(dir, 'config.yaml'), Buffer.concat([Buffer.from('approvals:\n  mode: off\nmodel: gpt-'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]));
    fs.writeFileSync(path.join(dir, '.env'), Buffer.concat([Buffer.from('A=1\nB='), Buffer.from([0xc3]), Buffer.from('\n')]));
    const problems = loadConfig(dir).problems.map(formatProblem);
    expect(problems).toEqual([
      `${dir}/config.yaml line 3: is not valid UTF-8 there (those bytes read as "\uFFFD", so what that line sets is changed). Fix: save the file as UTF-8.`,
      `${dir}/.env line 2: is not valid UTF-8 there (those bytes read as "\uFFFD", so what that line sets is changed). Fix: save the file as UTF-8.`,
    ]);
  });

  it('names .env lines that set nothing and quotes never closed, without their values', () => {
    const dir = home({ '.env': '# keys\nexport A=1\nJUST_A_NAME\n=orphan-value\nB="multi\nline"\nSECRET_KEY="sk-unclosed-123\nC = 3\n' });
    const loaded = loadConfig(dir);
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${dir}/.env line 3: is not NAME=value, so it sets nothing (hermes skips it). Fix: write it as NAME=value, or start it with # to keep it as a comment.`,
      `${dir}/.env line 4: is not NAME=value, so it sets nothing (hermes skips it). Fix: write it as NAME=value, or start it with # to keep it as a comment.`,
      `${dir}/.env line 7: the value of SECRET_KEY opens a " quote that is never closed (hermes takes it as written, quote included). Fix: close the quote.`,
    ]);
    expect(JSON.stringify(loaded.problems)).not.toContain('sk-unclosed');
    expect(loaded.dotenv).toMatchObject({ A: '1', B: 'multi\nline', C: '3' });
  });

  it('refuses a config.yaml over 1 MB with its size and the fix, and runs with defaults', () => {
    const dir = home({ 'config.yaml': `approvals:\n  mode: off\nnotes: |\n${'  pasted output\n'.repeat(80_000)}` });
    const loaded = loadConfig(dir);
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${dir}/config.yaml: is 1.2 MB; hermes reads settings files of up to 1 MB (settings take a few KB). Fix: remove what does not belong in it (pasted output, a log); until then hermes ignores it.`,
    ]);
    expect(loaded.problems[0]!.kind).toBe('unreadable');
    expect(loaded.config.approvals.mode).toBe('manual');
  });

  it('reads a file of 60,000 stray keys in one pass: names 20 of them and counts the rest', () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => `k${i}: ${i}`);
    const dir = home({ 'config.yaml': `approvals:\n  mode: off\n${lines.join('\n')}\n` });
    const loaded = loadConfig(dir);
    expect(loaded.config.approvals.mode).toBe('off');
    expect(loaded.problems).toHaveLength(21);
    expect(formatProblem(loaded.problems[0]!)).toBe(`${dir}/config.yaml line 3: unknown key \`k0\` (hermes ignores it)`);
    expect(formatProblem(loaded.problems[20]!)).toBe(`${dir}/config.yaml: 59980 more unknown keys after these (hermes ignores them)`);
  });

  it('does not read a .env or config.yaml that is a pipe (a read would never end), and says so', () => {
    const dir = home({});
    for (const name of ['config.yaml', '.env']) execFileSync('mkfifo', [path.join(dir, name)]);
    expect(loadConfig(dir).problems.map(formatProblem)).toEqual(
      ['config.yaml', '.env'].map((name) => `${dir}/${name}: is not a regular file (a pipe, a socket or a device), so hermes does not read it. Fix: replace it with a plain file (or remove it); until then hermes ignores it.`),
    );
  });

  it('names a key set twice in one section, with both lines, and ignores the file', () => {
    const dir = home({ 'config.yaml': 'agent:\n  max_turns: 5\napprovals:\n  mode: off\nagent:\n  max_turns: 7\n' });
    const loaded = loadConfig(dir);
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${dir}/config.yaml line 5: sets \`agent\` a second time (first on line 1). Fix: keep one of the two; until then hermes ignores config.yaml and runs with default settings.`,
    ]);
    expect(loaded.config.agent.max_turns).toBe(90);
  });

  it('merges YAML merge keys (`<<: *base`) as Hermes (PyYAML) does, without an unknown-key warning', () => {
    const yaml = 'mcp_servers:\n  a: &base\n    command: node\n    timeout: 30\n  b:\n    <<: *base\n    args: [b.js]\n  c:\n    <<: [*base]\n    <<: {connect_timeout: 5}\n    args: [c.js]\n';
    const loaded = loadConfig(home({ 'config.yaml': yaml }));
    expect(loaded.problems.map(formatProblem)).toEqual([]);
    expect(loaded.config.raw.mcp_servers).toEqual({
      a: { command: 'node', timeout: 30 },
      b: { command: 'node', timeout: 30, args: ['b.js'] },
      c: { command: 'node', timeout: 30, connect_timeout: 5, args: ['c.js'] },
    });
  });

  it('treats a missing HERMES_HOME as an empty configuration', () => {
    const loaded = loadConfig(path.join(os.tmpdir(), 'hermes-does-not-exist-' + process.pid));
    expect(loaded.problems).toEqual([]);
    expect(loaded.config.model).toEqual({});
  });
});

describe('resolveModel', () => {
  const base = loadConfig(home({})).config;
  const withModel = (model: Record<string, string>) => ({ ...base, model });

  it('uses a preset base URL and the key from the environment', () => {
    const r = resolveModel(withModel({ provider: 'openai', default: 'gpt-4o-mini' }), { OPENAI_API_KEY: 'sk-1' }, {}, '/h');
    expect(r).toEqual({ ok: true, model: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-1' } });
  });

  it('lets flags win over config', () => {
    const r = resolveModel(withModel({ provider: 'openai', default: 'a' }), {}, { provider: 'ollama', model: 'llama3.1' }, '/h');
    expect(r).toMatchObject({ ok: true, model: { provider: 'ollama', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1' } });
  });

  it('serves an OpenRouter slug (Hermes\'s `model: anthropic/…`) with whichever provider has a key', () => {
    const slug = withModel({ default: 'anthropic/claude-sonnet-4' });
    expect(resolveModel(slug, { OPENROUTER_API_KEY: 'k' }, {}, '/h')).toMatchObject({ ok: true, model: { provider: 'openrouter', model: 'anthropic/claude-sonnet-4' } });
    expect(resolveModel(slug, { ANTHROPIC_API_KEY: 'k' }, {}, '/h')).toMatchObject({ ok: true, model: { provider: 'anthropic', model: 'claude-sonnet-4' } });
  });

  it('treats a bare base_url as a custom endpoint that needs no key', () => {
    const r = resolveModel(withModel({ base_url: 'http://127.0.0.1:9/v1/', default: 'm' }), {}, {}, '/h');
    expect(r).toMatchObject({ ok: true, model: { provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'not-needed' } });
  });

  it('`model: ""` in config.yaml: the problem names that line, not a missing provider', () => {
    const r = resolveModel({ ...withModel({}), raw: { model: '' } }, {}, {}, '/h');
    expect(r).toMatchObject({ ok: false, problem: expect.stringMatching(/^config\.yaml sets model: "" \(an empty string\), which names no model\.\n.*\/h\/config\.yaml/s) });
    expect(resolveModel({ ...withModel({}), raw: { model: '' } }, { OPENAI_API_KEY: 'k' }, { model: 'gpt-4o' }, '/h')).toMatchObject({ ok: true });
  });

  it.each([
    [{}, {}, /No model provider is configured/],
    [{ provider: 'openai', default: 'gpt-4o' }, {}, /needs an API key in OPENAI_API_KEY/],
    [{ provider: 'acme', default: 'x' }, {}, /Unknown model provider "acme"/],
    [{ provider: 'custom', default: 'x' }, {}, /needs a base URL/],
    [{ provider: 'ollama' }, {}, /No model name is set/],
    [{ provider: 'custom', base_url: 'not a url', default: 'x' }, {}, /not a valid URL/],
  ])('explains what is missing: %j', (model, env, message) => {
    const r = resolveModel(withModel(model as Record<string, string>), env, {}, '/h');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problem).toMatch(message);
    expect(r.problem).toContain('/h/config.yaml');
    expect(r.problem).toContain('hermes --demo');
  });
});
