import { describe, expect, it } from 'vitest';
import { backendArgs, backendCommand } from './backendCommand.ts';

describe('backendCommand', () => {
  it('runs a TypeScript entry from HERMES_RPC_ENTRY through tsx with the source condition', () => {
    const { command, args } = backendCommand({ model: 'm1' }, { HERMES_RPC_ENTRY: '/x/rpc-server/src/main.ts' });
    expect(command).toBe(process.execPath);
    expect(args[0]).toBe('--conditions=source');
    expect(args[1]).toBe('--import');
    expect(args[2]).toMatch(/tsx/);
    expect(args.slice(3)).toEqual(['/x/rpc-server/src/main.ts', '--model', 'm1']);
  });

  it('runs a JavaScript entry directly', () => {
    const { args } = backendCommand({}, { HERMES_RPC_ENTRY: '/x/main.js' });
    expect(args).toEqual(['/x/main.js']);
  });

  it('falls back to the hermes-rpc bin of the installed backend package', () => {
    const { args } = backendCommand({}, {});
    expect(args[args.length - 1]).toMatch(/packages\/rpc-server\/(bin\/hermes-rpc\.cjs|src\/main\.ts)$/);
  });

  it('passes model, provider, base URL and demo through', () => {
    expect(backendArgs({ model: 'm', provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', demo: true })).toEqual([
      '--model',
      'm',
      '--provider',
      'custom',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--demo',
    ]);
  });

  it('starts a judge-only backend for approvals check', () => {
    expect(backendArgs({ judgeOnly: true })).toEqual(['--judge-only']);
  });

  it('starts a backend that imports no plugin for hermes plugins list|enable|disable', () => {
    expect(backendArgs({ discoverPluginsOnly: true })).toEqual(['--discover-plugins-only']);
    expect(backendArgs({ noSessionStore: true })).toEqual(['--no-session-store']);
  });
});
