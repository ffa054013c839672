import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatCheck, NODE_RANGE, nodeCheck } from './doctorCommand.ts';

describe('hermes doctor: the Node check', () => {
  it('checks the range the repository declares in engines.node', () => {
    const root = JSON.parse(fs.readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(NODE_RANGE).toBe(root.engines.node);
  });

  it.each([
    ['20.11.0', 'ok'],
    ['20.19.4', 'ok'],
    ['22.12.0', 'ok'],
    ['20.10.9', 'fail'],
    ['18.20.0', 'fail'],
    ['23.0.0', 'fail'],
  ])('Node %s: %s', (version, status) => {
    const check = nodeCheck(version);
    expect(check.status).toBe(status);
    if (status === 'fail') expect(formatCheck(check)).toBe(`FAIL  node: Node ${version}; hermes needs >=20.11 <23 — fix: install Node 20.11 or a later 20.x/22.x (nvm install 22), then reinstall hermes`);
  });
});

describe('formatCheck', () => {
  it("prints a server's escape sequences (OSC 52, OSC 0, CSI 2J, C1 CSI) as nothing, on one line", () => {
    const line = formatCheck({ name: 'mcp \x1b]0;pwned\x07evil', status: 'fail', detail: 'exited; its stderr ended with:\n\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2Jcannot start', fix: 'check \x9b2Jit' });
    expect(line).toBe('FAIL  mcp evil: exited; its stderr ended with: | cannot start — fix: check it');
  });
});
