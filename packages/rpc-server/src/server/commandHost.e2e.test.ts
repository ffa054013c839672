/**
 * The listings slash commands get from this backend (`/skills`, `/plugins`, `/tools`, `/toolsets`):
 * the real backend over pipes, a user skill and a user plugin on disk. The built-in commands' own
 * tests use a recording host; this is the host they run against in hermes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const PLUGIN = `export function register(ctx) {
  ctx.registerTool({
    name: 'reverse', toolset: 'words', description: 'Reverses text',
    schema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: (args) => [...String(args.text)].reverse().join(''),
  });
  ctx.registerSkill('guide', './guide');
}
`;

/** A HERMES_HOME with a user skill `deploy` and a plugin `wordplay` bringing a tool and a skill. */
function home(): string {
  const dir = tempDir('hermes-command-host-');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('skills/deploy/SKILL.md', '---\nname: deploy\ndescription: Ship to prod\n---\nRun make deploy.\n');
  write('plugins/wordplay/plugin.yaml', 'name: wordplay\nversion: 1.2.0\n');
  write('plugins/wordplay/index.js', PLUGIN);
  write('plugins/wordplay/guide/SKILL.md', '---\nname: guide\ndescription: How to play\n---\nPlay.\n');
  return dir;
}

describe('the listings slash commands get from the backend', () => {
  it('/skills lists the user skills and the plugin skills; /plugins, /tools and /toolsets what is loaded', async () => {
    const backend = new BackendProcess({ home: home(), args: ['--demo'] });
    cleanups.push(() => backend.stop());
    const { session_id: sid } = await backend.request('session.create', {});
    const slash = async (command: string) => (await backend.request('slash.exec', { session_id: sid, command })).output ?? '';

    // A plugin's SKILL.md is not read until the skill is viewed, so it is listed by name.
    expect((await slash('/skills')).split('\n')).toEqual(['deploy — Ship to prod', 'wordplay:guide']);
    expect(await slash('/plugins')).toBe('● wordplay 1.2.0 (user) tools 1, hooks 0, middleware 0, commands 0');
    expect((await slash('/tools')).split('\n')).toContainEqual(expect.stringMatching(/^● words: reverse$/));
    expect((await slash('/toolsets')).split('\n')).toContainEqual(expect.stringMatching(/^● words — /));
  });
});
