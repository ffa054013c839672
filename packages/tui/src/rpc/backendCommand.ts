/**
 * Works out how to start the backend process. Only file paths are resolved here: the TUI never
 * imports backend code, it runs it as a child.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BackendOptions {
  model?: string;
  provider?: string;
  baseUrl?: string;
  demo?: boolean;
  /** Start the backend with `--judge-only`: approvals.check only, nothing written (no state.db, no logs). */
  judgeOnly?: boolean;
  /** Start the backend with `--discover-plugins-only`: plugins are listed, never imported. */
  discoverPluginsOnly?: boolean;
  /** Start the backend with `--no-mcp-connect`: config.yaml's MCP servers are read, never started. */
  noMcpConnect?: boolean;
  /** Start the backend with `--no-session-store`: the session database is neither opened nor created (hermes doctor). */
  noSessionStore?: boolean;
}

export interface ProcessCommand {
  command: string;
  args: string[];
}

const require = createRequire(import.meta.url);

/** `--import` target for running TypeScript sources; absolute so it works from any cwd. */
export function tsxImportSpecifier(): string {
  try {
    return pathToFileURL(require.resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
}

/** `node` arguments that run `entry`, through tsx when it is a TypeScript source. */
export function nodeArgsFor(entry: string): string[] {
  return /\.[cm]?tsx?$/.test(entry) ? ['--conditions=source', '--import', tsxImportSpecifier(), entry] : [entry];
}

export function backendArgs(options: BackendOptions): string[] {
  const args: string[] = [];
  if (options.model) args.push('--model', options.model);
  if (options.provider) args.push('--provider', options.provider);
  if (options.baseUrl) args.push('--base-url', options.baseUrl);
  if (options.demo) args.push('--demo');
  if (options.judgeOnly) args.push('--judge-only');
  if (options.discoverPluginsOnly) args.push('--discover-plugins-only');
  if (options.noMcpConnect) args.push('--no-mcp-connect');
  if (options.noSessionStore) args.push('--no-session-store');
  return args;
}

/**
 * The backend's entry file: `HERMES_RPC_ENTRY` when set, else the `hermes-rpc` bin of the backend
 * package this TUI ships with. The TUI package's `imports` map names it (`#backend`): the workspace's
 * `@hermes/rpc-server` in the repository, the `rpc-server/` folder beside it in the installed package
 * (scripts/packaging/). In a source checkout whose backend has not been built yet, its `src/main.ts`
 * is used instead so `node --import tsx packages/tui/src/main.tsx` works without a build.
 */
export function resolveBackendEntry(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.HERMES_RPC_ENTRY?.trim();
  if (override) return resolve(override);
  const packageJsonPath = require.resolve('#backend/package.json');
  const packageDir = dirname(packageJsonPath);
  const manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.['hermes-rpc'];
  if (!bin) throw new Error(`${packageJsonPath} declares no "hermes-rpc" bin`);
  const sourceEntry = join(packageDir, 'src', 'main.ts');
  if (!existsSync(join(packageDir, 'dist', 'main.cjs')) && existsSync(sourceEntry)) return sourceEntry;
  return join(packageDir, bin);
}

export function backendCommand(options: BackendOptions, env: NodeJS.ProcessEnv = process.env): ProcessCommand {
  return { command: process.execPath, args: [...nodeArgsFor(resolveBackendEntry(env)), ...backendArgs(options)] };
}
