/**
 * A TypeScript plugin in the shipped backend (the bundle over real pipes): it loads without a build
 * step, as docs/plugins.md says, beside a JavaScript one loaded in the same start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

function plugin(home: string, name: string, file: string, source: string): void {
  const dir = path.join(home, 'plugins', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.yaml'), `name: ${name}\n`);
  fs.writeFileSync(path.join(dir, file), source);
}

describe('a TypeScript plugin in the built backend', () => {
  it('loads, and its command runs', { timeout: 60_000 }, async () => {
    const home = tempDir('hermes-home-');
    plugin(home, 'typed', 'index.ts', `interface Ctx { registerCommand(name: string, run: (args: string) => string, help: string): void }
const greeting: string = 'typed plugin ran';
export function register(ctx: Ctx): void { ctx.registerCommand('typed', (args) => \`\${greeting} with \${args}\`, 'a typed command'); }
`);
    plugin(home, 'plain', 'index.mjs', `export function register(ctx) { ctx.registerCommand('plain', () => 'plain ran', 'a plain command'); }\n`);
    const backend = new BackendProcess({ home });
    const { plugins } = await backend.request('plugins.list', {});
    expect(plugins.map((p) => [p.name, p.enabled, p.error])).toEqual([
      ['plain', true, null],
      ['typed', true, null],
    ]);
    const { session_id: sid } = await backend.request('session.create', {});
    expect(await backend.request('slash.exec', { session_id: sid, command: '/typed x' })).toEqual({ output: 'typed plugin ran with x' });
  });
});
