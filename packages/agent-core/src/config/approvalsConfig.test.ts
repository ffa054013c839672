/** `approvals.mode` (normalised as Hermes does), the denial breaker and `auxiliary.approval` in config.yaml. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeWith } from '../testing/tempHome.ts';
import { approvalModeOf } from './approvalMode.ts';
import { formatProblem, loadConfig } from './loadConfig.ts';
import { resolveAuxiliaryModel } from './resolveModel.ts';

/** Loads `configYaml` from a fresh HERMES_HOME (removed when the test ends). */
function load(configYaml: string) {
  const dir = homeWith({ 'config.yaml': configYaml }, 'approvals-config');
  return { dir, ...loadConfig(dir) };
}

describe('approvals.mode', () => {
  it.each([
    [false, 'off'],
    ['off', 'off'],
    [' OFF ', 'off'],
    ['smart', 'smart'],
    [' SMART ', 'smart'],
    ['Manual', 'manual'],
    [true, 'manual'],
    ['', 'manual'],
    ['auto', undefined],
    ['yes please', undefined],
    [1, undefined],
  ])('normalises %j to %s', (value, mode) => {
    expect(approvalModeOf(value)).toBe(mode);
  });

  it.each([
    ['approvals:\n  mode: " SMART "\n', 'smart'],
    ['approvals:\n  mode: false\n', 'off'],
    ['approvals:\n  mode: off\n', 'off'],
    ['approvals:\n  mode: true\n', 'manual'],
    ['approvals:\n  mode: ""\n', 'manual'],
  ])('reads %j as %s without a problem', (yaml, mode) => {
    const loaded = load(yaml);
    expect(loaded.config.approvals.mode).toBe(mode);
    expect(loaded.problems).toEqual([]);
  });

  it('an unknown mode is manual, with a problem naming the modes', () => {
    const loaded = load('approvals:\n  mode: auto\n');
    expect(loaded.config.approvals.mode).toBe('manual');
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(loaded.dir, 'config.yaml')} line 2: \`approvals.mode\` must be one of manual, smart, off (found "auto")`,
    ]);
  });
});

describe('smart approval settings', () => {
  it('defaults: three denials, the session model, 20 s', () => {
    const { config, problems } = load('model: x\n');
    expect(problems).toEqual([]);
    expect(config.approvals.denial_breaker_threshold).toBe(3);
    expect(config.auxiliary.approval).toEqual({ timeout: 20 });
  });

  it('reads the threshold and the guardian model, and leaves other auxiliary tasks alone', () => {
    const { config, problems } = load(
      [
        'approvals:',
        '  denial_breaker_threshold: 5',
        'auxiliary:',
        '  approval:',
        '    provider: openrouter',
        '    model: " cheap/model "',
        '    timeout: 7.5',
        '  compression:',
        '    model: other',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(config.approvals.denial_breaker_threshold).toBe(5);
    expect(config.auxiliary.approval).toEqual({ provider: 'openrouter', model: 'cheap/model', timeout: 7.5 });
  });

  it('reports bad values on their line and keeps the defaults', () => {
    const loaded = load(['approvals:', '  denial_breaker_threshold: 0', 'auxiliary:', '  approval:', '    timeout: soon', '    model: 42'].join('\n'));
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(loaded.dir, 'config.yaml')} line 2: \`approvals.denial_breaker_threshold\` must be a whole number above 0 (found 0)`,
      `${path.join(loaded.dir, 'config.yaml')} line 6: \`auxiliary.approval.model\` must be a string (found 42)`,
      `${path.join(loaded.dir, 'config.yaml')} line 5: \`auxiliary.approval.timeout\` must be a number above 0 (found "soon")`,
    ]);
    expect(loaded.config.approvals.denial_breaker_threshold).toBe(3);
    expect(loaded.config.auxiliary.approval).toEqual({ timeout: 20 });
  });

  it('says so when auxiliary.approval is not a mapping', () => {
    const loaded = load('auxiliary:\n  approval: cheap-model\n');
    expect(loaded.problems.map((p) => p.message)).toEqual([
      '`auxiliary.approval` must be a mapping of settings (auxiliary.approval:, then indented key: value lines), found "cheap-model"; its settings keep their defaults',
    ]);
    expect(loaded.problems[0]!.line).toBe(2);
  });
});

describe('resolveAuxiliaryModel', () => {
  const base = (yaml: string) => load(yaml).config;
  const env = { OPENAI_API_KEY: 'sk-main-key-1234567890', OPENROUTER_API_KEY: 'sk-or-key-1234567890' };

  it('is null when nothing is set: the guardian uses the session model', () => {
    expect(resolveAuxiliaryModel({}, base('model:\n  provider: openai\n  default: gpt-4o\n'), env, {}, '/h')).toBeNull();
  });

  it('a model alone keeps the main provider and endpoint', () => {
    const config = base('model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: big\n');
    expect(resolveAuxiliaryModel({ model: 'small' }, config, env, {}, '/h')).toMatchObject({
      ok: true,
      model: { provider: 'custom', model: 'small', baseUrl: 'http://127.0.0.1:9/v1' },
    });
  });

  it('its own provider gets that provider’s endpoint and key, not the main ones', () => {
    const config = base('model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: big\n');
    expect(resolveAuxiliaryModel({ provider: 'openrouter', model: 'cheap/model' }, config, env, {}, '/h')).toMatchObject({
      ok: true,
      model: { provider: 'openrouter', model: 'cheap/model', baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-or-key-1234567890' },
    });
  });

  it('says what is missing', () => {
    const resolution = resolveAuxiliaryModel({ provider: 'anthropic', model: 'claude-haiku' }, base('model: x\n'), {}, {}, '/h');
    expect(resolution).toMatchObject({ ok: false, problem: expect.stringMatching(/^Provider "anthropic" needs an API key in ANTHROPIC_API_KEY/) });
  });
});
