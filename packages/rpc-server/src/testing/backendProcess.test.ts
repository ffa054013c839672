import fs from 'node:fs';
import { expect, it, onTestFinished } from 'vitest';
import { onCleanup, tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { BackendProcess } from './backendProcess.ts';

it('removes the home it made once the test is over', async () => {
  let home = '';
  // Registered first, so it runs last: after the home's removal.
  onTestFinished(() => expect(fs.existsSync(home)).toBe(false));
  const backend = new BackendProcess();
  home = backend.home;
  await backend.waitForEvent((e) => e.type === 'gateway.ready');
  expect(backend.child.exitCode).toBeNull();
});

it('stops a backend the test left running before its home is removed', async () => {
  const home = tempDir('hermes-own-home-');
  let backend: BackendProcess | undefined;
  // Runs after the backend's own cleanup and before the home's removal.
  onCleanup(() => {
    const running = backend?.child.exitCode === null && backend.child.signalCode === null;
    if (running) backend?.child.kill('SIGKILL');
    expect(running).toBe(false);
    expect(fs.existsSync(home)).toBe(true);
  });
  backend = new BackendProcess({ home });
  await backend.waitForEvent((e) => e.type === 'gateway.ready');
});
