import { parseArgs } from 'node:util';
import type { ModelFlags } from '@hermes/agent-core';

export interface BackendArgs {
  flags: ModelFlags;
  demo: boolean;
  /** `--judge-only`: serve approvals.check only, creating nothing under $HERMES_HOME. */
  judgeOnly: boolean;
  /** `--discover-plugins-only`: plugins are discovered and listed, never imported (`hermes plugins …`). */
  discoverPluginsOnly: boolean;
  /** `--no-mcp-connect`: config.yaml's MCP servers are read but never started (`hermes mcp add|remove|test`). */
  noMcpConnect: boolean;
  /** `--no-session-store`: the session store is neither opened nor created (`hermes doctor`). */
  noSessionStore: boolean;
  /** `--version`: print the package and protocol versions and exit. */
  version: boolean;
}

export const BACKEND_USAGE =
  'usage: hermes-rpc [--model NAME] [--provider ID] [--base-url URL] [--demo] [--judge-only] [--discover-plugins-only] [--no-mcp-connect] [--no-session-store] [--version]\n' +
  'Runs the hermes backend: newline-delimited JSON-RPC 2.0 on stdin/stdout.\n' +
  '--judge-only serves approvals.check only: no sessions, no model, no plugins, and nothing written.\n' +
  '--discover-plugins-only lists plugins from discovery, manifests and config without importing any.\n' +
  '--no-mcp-connect reads the MCP servers of config.yaml without starting or connecting to any.\n' +
  '--no-session-store neither opens nor creates the session database (hermes doctor: sessions are not needed).';

/** Parses the backend's argv; throws with the usage text on unknown options. */
export function parseBackendArgs(argv: string[]): BackendArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: 'string' },
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      demo: { type: 'boolean', default: false },
      'judge-only': { type: 'boolean', default: false },
      'discover-plugins-only': { type: 'boolean', default: false },
      'no-mcp-connect': { type: 'boolean', default: false },
      version: { type: 'boolean', default: false },
      'no-session-store': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  return {
    flags: {
      ...(values.model ? { model: values.model } : {}),
      ...(values.provider ? { provider: values.provider } : {}),
      ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    },
    demo: values.demo ?? false,
    judgeOnly: values['judge-only'] ?? false,
    discoverPluginsOnly: values['discover-plugins-only'] ?? false,
    noMcpConnect: values['no-mcp-connect'] ?? false,
    version: values.version ?? false,
    noSessionStore: values['no-session-store'] ?? false,
  };
}
