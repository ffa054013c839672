/** Each plugin source through the real backend process: user, project (only when enabled), npm; and the gate. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const ENTRY = (name: string) => `export default function register(ctx) { ctx.registerCommand('${name}-cmd', () => '${name}', '${name}'); }\n`;

function layout(): { home: string; project: string } {
  const home = tempDir('hermes-sources-');
  const project = tempDir('hermes-project-');
  const user = path.join(home, 'plugins', 'from-user');
  fs.mkdirSync(user, { recursive: true });
  fs.writeFileSync(path.join(user, 'plugin.yaml'), 'name: from-user\n');
  fs.writeFileSync(path.join(user, 'index.js'), ENTRY('user'));
  const proj = path.join(project, '.hermes', 'plugins', 'from-project');
  fs.mkdirSync(proj, { recursive: true });
  fs.writeFileSync(path.join(proj, 'plugin.yaml'), 'name: from-project\n');
  fs.writeFileSync(path.join(proj, 'index.js'), ENTRY('project'));
  const npm = path.join(home, 'node_modules', 'hermes-plugin-from-npm');
  fs.mkdirSync(npm, { recursive: true });
  fs.writeFileSync(
    path.join(npm, 'package.json'),
    JSON.stringify({ name: 'hermes-plugin-from-npm', version: '3.0.0', type: 'module', main: 'main.js', hermes: { plugin: { name: 'from-npm' } } }),
  );
  fs.writeFileSync(path.join(npm, 'main.js'), ENTRY('npm'));
  return { home, project };
}

async function listed(home: string, project: string, env: Record<string, string> = {}, config?: string) {
  const backend = new BackendProcess({ home, env, config, cwd: project });
  cleanups.push(() => backend.stop());
  const { plugins } = await backend.request('plugins.list', {});
  return Object.fromEntries(plugins.map((p) => [p.name, p]));
}

describe('plugin sources', () => {
  it('loads user and npm plugins; project plugins only with HERMES_ENABLE_PROJECT_PLUGINS', async () => {
    const { home, project } = layout();
    const without = await listed(home, project);
    expect(Object.keys(without).sort()).toEqual(['from-npm', 'from-user']);
    expect(without['from-npm']).toMatchObject({ source: 'npm', enabled: true, commands: 1 });
    expect(without['from-user']).toMatchObject({ source: 'user', enabled: true, commands: 1 });
    const withProject = await listed(home, project, { HERMES_ENABLE_PROJECT_PLUGINS: 'true' });
    expect(withProject['from-project']).toMatchObject({ source: 'project', enabled: true, commands: 1 });
  });

  it('the gate: plugins.disabled and plugins.enabled', async () => {
    const { home, project } = layout();
    const gated = await listed(home, project, {}, 'plugins:\n  disabled: [from-user]\n');
    expect(gated['from-user']).toMatchObject({ enabled: false, commands: 0 });
    expect(gated['from-npm']).toMatchObject({ enabled: true });
    const only = await listed(home, project, {}, 'plugins:\n  enabled: [from-user]\n');
    expect(only['from-user']).toMatchObject({ enabled: true });
    expect(only['from-npm']).toMatchObject({ enabled: false, commands: 0 });
  });
});
