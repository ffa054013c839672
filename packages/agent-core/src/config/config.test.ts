import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadConfig } from './loadConfig.ts';
import { resolveModel } from './resolveModel.ts';

function home(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-config-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

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

  it('treats a bare base_url as a custom endpoint that needs no key', () => {
    const r = resolveModel(withModel({ base_url: 'http://127.0.0.1:9/v1/', default: 'm' }), {}, {}, '/h');
    expect(r).toMatchObject({ ok: true, model: { provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'not-needed' } });
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
