/** `terminal.env_passthrough` in config.yaml reaches the tools' environment; a wrong shape says how to fix it. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadConfig } from '../config/loadConfig.ts';
import { HermesRuntime } from '../runtime.ts';
import { silentLogger } from '../logging/logger.ts';
import { homeWith as homeWithFiles } from '../testing/tempHome.ts';

const homeWith = (config: string, dotenv = '') => homeWithFiles(dotenv ? { 'config.yaml': config, '.env': dotenv } : { 'config.yaml': config }, 'passthrough');

describe('terminal.env_passthrough', () => {
  it('defaults to none and reads a list of names', () => {
    expect(loadConfig(homeWith('')).config.terminal.env_passthrough).toEqual([]);
    expect(loadConfig(homeWith('terminal:\n  env_passthrough: [GITHUB_TOKEN, DB_URL]\n')).config.terminal.env_passthrough).toEqual(['GITHUB_TOKEN', 'DB_URL']);
  });

  it('reports a value that is not a list of names, with its line', () => {
    const home = homeWith('terminal:\n  env_passthrough: GITHUB_TOKEN\n');
    const loaded = loadConfig(home);
    expect(loaded.config.terminal.env_passthrough).toEqual([]);
    expect(loaded.problems.map(formatProblem)).toEqual([`${path.join(home, 'config.yaml')} line 2: \`terminal.env_passthrough\` must be a list of strings (found "GITHUB_TOKEN")`]);
  });

  it('the runtime gives tools the environment without provider keys and .env variables, plus the ones passed', () => {
    const home = homeWith('terminal:\n  env_passthrough: [PASSED_FROM_DOTENV]\n', 'KEPT_IN_DOTENV=aaaaaaaaaa\nPASSED_FROM_DOTENV=bbbbbbbbbb\n');
    const runtime = new HermesRuntime({ home, env: { PATH: '/usr/bin', OPENAI_API_KEY: 'sk-x', KEPT_IN_DOTENV: 'exported too', OTHER: 'o' }, logger: silentLogger });
    try {
      expect(runtime.settings.env).toEqual({ PATH: '/usr/bin', OTHER: 'o', PASSED_FROM_DOTENV: 'bbbbbbbbbb' });
    } finally {
      runtime.close();
    }
  });
});
