/**
 * The backend and the protocol its client states (HERMES_CLIENT_PROTOCOL, docs/wire.md Handshake):
 * another version is refused before anything starts, with both versions and the fix; a client that
 * states nothing, as PROTOCOL.md describes it, is served as before.
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLIENT_PROTOCOL_ENV, EventType, HERMES_VERSION, PROTOCOL_VERSION, STARTUP_ERROR_PREFIX } from '../protocol/index.ts';
import { BACKEND_BIN, BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const other = PROTOCOL_VERSION + 1;

const runBackend = (env: Record<string, string>, args: string[] = []) =>
  execa(process.execPath, [BACKEND_BIN, ...args], { env: { HERMES_HOME: tempDir('hermes-protocol-home-'), ...env }, reject: false, stdin: 'ignore', timeout: 30_000 });

describe('hermes-rpc and the protocol its client states', () => {
  it('refuses a client of another protocol: one startup-error line naming both versions and the fix, exit 1, stdout untouched', async () => {
    const result = await runBackend({ [CLIENT_PROTOCOL_ENV]: String(other) });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(
      `${STARTUP_ERROR_PREFIX}hermes-rpc ${HERMES_VERSION} speaks protocol ${PROTOCOL_VERSION} but hermes speaks protocol ${other}: reinstall so hermes and hermes-rpc match (both come from one hermes-agent package; HERMES_RPC_ENTRY, when set, must name that package's hermes-rpc)`,
    );
  });

  it('a statement that is not a number is refused with what to give instead', async () => {
    const result = await runBackend({ [CLIENT_PROTOCOL_ENV]: 'v1' });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(`${STARTUP_ERROR_PREFIX}${CLIENT_PROTOCOL_ENV} must be a protocol number such as ${PROTOCOL_VERSION}, got "v1"`);
  });

  it('serves a client stating its own protocol, and one stating nothing; the commands it runs do not inherit the statement', async () => {
    for (const env of [{ [CLIENT_PROTOCOL_ENV]: String(PROTOCOL_VERSION) }, {}] as Record<string, string>[]) {
      const backend = new BackendProcess({ env });
      const ready = await backend.waitForEvent((e) => e.type === EventType.GatewayReady);
      expect(ready.payload).toMatchObject({ version: HERMES_VERSION, protocol: PROTOCOL_VERSION });
      const shell = await backend.request('shell.exec', { command: `echo "[\${${CLIENT_PROTOCOL_ENV}-unset}]"` });
      expect(shell.stdout.trim()).toBe('[unset]');
      await backend.stop();
    }
  });

  it('--version prints the package and protocol versions on stdout and exits 0', async () => {
    const result = await runBackend({}, ['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`hermes-rpc ${HERMES_VERSION} (protocol ${PROTOCOL_VERSION})`);
  });

  it("still starts through the bin's first name, bin/hermes-rpc.js (the package's bin is hermes-rpc.cjs)", async () => {
    const result = await execa(process.execPath, [BACKEND_BIN.replace(/\.cjs$/, '.js'), '--version'], { reject: false, stdin: 'ignore', timeout: 30_000 });
    expect(BACKEND_BIN).toMatch(/bin\/hermes-rpc\.cjs$/);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`hermes-rpc ${HERMES_VERSION} (protocol ${PROTOCOL_VERSION})`);
  });
});
