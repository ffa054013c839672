/**
 * Two installs of hermes side by side: a `hermes` that starts a `hermes-rpc` of another protocol
 * version is refused with both versions named and the fix, by the backend (it checks the protocol the
 * TUI states) or by the TUI (it checks `gateway.ready.protocol`, for a backend that does not check),
 * instead of a hang or a failure later on a method that differs.
 */
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { HERMES_VERSION, PROTOCOL_VERSION } from '@hermes/rpc-server/protocol';
import { HERMES_BIN, spawnHermes, type HermesPty } from '../testing/ptyHarness.ts';
import { OTHER_PROTOCOL, otherProtocolBackend } from '../testing/otherProtocolBackend.ts';
import { CLEAN_ENV } from '../testing/realBackend.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const FIX = 'reinstall so hermes and hermes-rpc match';
const started: HermesPty[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.kill()));
});

const chatWith = (backendEntry: string) =>
  execa(process.execPath, [HERMES_BIN, 'chat', '-q', 'hello', '--provider', 'custom', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'], {
    env: { ...CLEAN_ENV, HERMES_HOME: tempDir('hermes-protocol-home-'), HERMES_RPC_ENTRY: backendEntry },
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });

describe('hermes --version', () => {
  it("names the package and protocol versions, through the package's bin (bin/hermes.cjs) and its first name (bin/hermes.js)", async () => {
    expect(HERMES_BIN).toMatch(/bin\/hermes\.cjs$/);
    for (const bin of [HERMES_BIN, HERMES_BIN.replace(/\.cjs$/, '.js')]) {
      const result = await execa(process.execPath, [bin, '--version'], { reject: false, stdin: 'ignore', timeout: 30_000 });
      expect({ bin, exitCode: result.exitCode, stdout: result.stdout }).toEqual({ bin, exitCode: 0, stdout: `hermes ${HERMES_VERSION} (protocol ${PROTOCOL_VERSION})` });
    }
  });
});

describe('a hermes-rpc of another protocol version', () => {
  it('refuses this hermes by itself: hermes chat -q prints its message (both versions, the fix) and exits 1', async () => {
    const result = await chatWith(await otherProtocolBackend({ checksClient: true }));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`hermes-rpc ${HERMES_VERSION} speaks protocol ${OTHER_PROTOCOL} but hermes speaks protocol ${PROTOCOL_VERSION}: ${FIX}`);
  });

  it('one that does not check is refused by hermes on its gateway.ready: chat -q exits 1 naming both versions', async () => {
    const result = await chatWith(await otherProtocolBackend({ checksClient: false }));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`hermes-rpc ${HERMES_VERSION} speaks protocol ${OTHER_PROTOCOL} but hermes ${HERMES_VERSION} speaks protocol ${PROTOCOL_VERSION}: ${FIX}`);
  });

  it('the terminal UI shows the refusal on screen instead of waiting for a backend it cannot use', async () => {
    for (const checksClient of [true, false]) {
      const entry = await otherProtocolBackend({ checksClient });
      const hermes = spawnHermes({ env: { ...CLEAN_ENV, HERMES_RPC_ENTRY: entry } });
      started.push(hermes);
      const screen = await hermes.waitForText(FIX);
      expect(screen.replace(/\s+/g, ' ')).toContain(`speaks protocol ${OTHER_PROTOCOL} but hermes`);
      expect(screen).toContain('hermes could not start');
    }
  });
});
