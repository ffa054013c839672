/**
 * `hermes mcp list|add|remove|test`: the MCP servers of config.yaml from the command line. Like
 * `hermes plugins`, a client of a backend started for the command: add and remove go through its
 * `config.set` (the one config writer, which keeps the file's comments and layout), list and test
 * through `mcp.list` / `mcp.test`. Values of `env` and `headers` are stored as written and never printed.
 */
import { ErrorCode, type McpServerStatus } from '@hermes/rpc-server/protocol';
import { errorCode } from '../app/rpcErrors.ts';
import type { Logger } from '../logging/logger.ts';
import type { BackendOptions } from '../rpc/backendCommand.ts';
import type { HermesClient } from '../rpc/hermesClient.ts';
import type { McpServerOptions } from './args.ts';
import type { ChatIo } from './chatCommand.ts';
import { plainText } from './plainText.ts';
import { CommandFailure, runPlanned } from './withBackend.ts';

export const MCP_USAGE = `Usage:
  hermes mcp list
  hermes mcp add <name> --command <cmd> [--arg <a>]... [--env K=V]... [-- <arg>...]
  hermes mcp add <name> --url <url> [--header K=V]...
  hermes mcp remove <name>
  hermes mcp test <name>
`;

/** How long `hermes mcp list` lets the servers connect before it reports them (a slow one shows as connecting). */
export const MCP_LIST_WAIT_MS = 15_000;

const usage = (message: string) => new CommandFailure(`${message}\n${MCP_USAGE}`, 2);

type Action = (client: HermesClient, io: ChatIo) => Promise<number | void>;

/** The server entry config.yaml gets: Hermes's keys (`command`, `args`, `env` / `url`, `headers`). */
export function serverEntry(name: string, given: McpServerOptions): Record<string, unknown> {
  const { command, url } = given;
  if (command === undefined && url === undefined) throw usage(`hermes mcp add ${name}: give --command <cmd> (a stdio server) or --url <url> (an HTTP server)`);
  if (command !== undefined && url !== undefined) throw usage(`hermes mcp add ${name}: give --command or --url, not both`);
  if (command !== undefined) {
    if (!command.trim()) throw usage(`hermes mcp add ${name}: --command is empty`);
    if (given.headers.length) throw usage(`hermes mcp add ${name}: --header applies to --url servers; a --command server takes --env`);
    const env = pairs('--env', given.env);
    return { command, ...(given.args.length ? { args: given.args } : {}), ...(Object.keys(env).length ? { env } : {}) };
  }
  if (given.args.length || given.env.length) throw usage(`hermes mcp add ${name}: --arg and --env apply to --command servers; a --url server takes --header`);
  if (!url!.trim()) throw usage(`hermes mcp add ${name}: --url is empty`);
  const headers = pairs('--header', given.headers);
  return { url, ...(Object.keys(headers).length ? { headers } : {}) };
}

/**
 * `K=V` words as a mapping; the value may be empty or hold `=`, the name may not be empty. A refused
 * word is never echoed: `--header 'Authorization: Bearer <token>'` holds a secret.
 */
function pairs(option: string, words: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at <= 0) throw usage(`${option} takes NAME=VALUE (a name, "=", then the value; e.g. ${option === '--env' ? "--env TOKEN='${TOKEN}'" : "--header Authorization='Bearer ${TOKEN}'"}); one ${option} given has ${at === 0 ? 'no name before "="' : 'no "="'}`);
    const key = word.slice(0, at);
    if (Object.hasOwn(out, key)) throw usage(`${option} ${key} is given twice`);
    out[key] = word.slice(at + 1);
  }
  return out;
}

/** Checks the arguments before a backend is started: a usage error costs nothing. */
function plan(argv: string[], given: McpServerOptions | undefined): Action {
  const [verb, name, ...extra] = argv;
  const hasServerOptions = Boolean(given && (given.command !== undefined || given.url !== undefined || given.args.length || given.env.length || given.headers.length));
  if (verb !== 'add' && hasServerOptions) throw usage(`--command, --arg, --env, --url and --header apply to "hermes mcp add" only`);
  if (verb === 'list') {
    if (name !== undefined) throw usage('hermes mcp list takes no arguments');
    return list;
  }
  if (verb !== 'add' && verb !== 'remove' && verb !== 'test') throw usage(verb ? `hermes mcp: unknown subcommand "${verb}"` : 'hermes mcp: say what to do');
  if (!name) throw usage(`hermes mcp ${verb}: give the server's name`);
  if (verb === 'add') {
    const options = given ?? { args: [], env: [], headers: [] };
    // As Hermes's own CLI takes them: the words after the command are its arguments (`--command node server.js`).
    if (extra.length && options.args.length) throw usage(`hermes mcp add ${name}: give the server's arguments with --arg or after the command, not both`);
    if (extra.length && options.command === undefined) throw usage(`hermes mcp add ${name}: ${extra.length} word(s) after the name — arguments follow --command <cmd>; a --url server takes none`);
    const entry = serverEntry(name, extra.length ? { ...options, args: extra } : options);
    return (client, io) => add(client, io, name, entry);
  }
  if (extra.length) throw usage(`hermes mcp ${verb}: give exactly one server name`);
  if (verb === 'remove') return (client, io) => remove(client, io, name);
  return (client, io) => test(client, io, name);
}

async function list(client: HermesClient, io: ChatIo): Promise<void> {
  const started = Date.now();
  const { servers } = await client.request('mcp.list', { wait_ms: MCP_LIST_WAIT_MS });
  const waited = Date.now() - started;
  if (servers.length === 0) {
    io.stdout.write('No MCP servers in config.yaml. Add one: hermes mcp add <name> --command <cmd> | --url <url>\n');
    return;
  }
  for (const s of servers) io.stdout.write(`${statusLine(s)}\n`);
  const connecting = servers.filter((s) => s.status === 'connecting').length;
  if (connecting) io.stderr.write(`hermes mcp list: ${connecting} server(s) still connecting after ${(waited / 1000).toFixed(1)} s; \`hermes mcp test <name>\` waits for one.\n`);
}

/**
 * One server on one line, tab-separated: name, status, tool count, transport and target, error (its
 * lines, e.g. the server's stderr, joined with " | "). Never an env or header value.
 */
export function statusLine(s: McpServerStatus): string {
  const error = s.error ? [s.error.trim().replace(/\s*\n\s*/g, ' | ').replace(/\t/g, ' ')] : [];
  // The error holds the server's own stderr: third-party text, never written to the terminal raw.
  const note = s.note ? [`note: ${s.note}`] : [];
  return plainText([s.name, s.status, `tools ${s.tool_count}`, `${s.transport} ${s.target}`, ...error, ...note].join('\t'));
}

async function configured(client: HermesClient): Promise<Record<string, unknown>> {
  const { value } = await client.request('config.get', { key: 'mcp_servers' });
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

async function add(client: HermesClient, io: ChatIo, name: string, entry: Record<string, unknown>): Promise<void> {
  if (Object.hasOwn(await configured(client), name)) {
    throw new CommandFailure(`hermes mcp add: config.yaml already has an MCP server named "${name}"; remove it first (hermes mcp remove ${name})`, 1);
  }
  await setServer(client, name, entry);
  const secrets = Object.keys((entry.env ?? entry.headers ?? {}) as Record<string, string>);
  const what = entry.command !== undefined ? `stdio: ${entry.command}` : `http: ${withoutCredentials(String(entry.url))}`;
  io.stdout.write(
    plainText(`Added MCP server ${name} (${what}${secrets.length ? `; ${entry.env ? 'env' : 'headers'}: ${secrets.join(', ')}` : ''}) to config.yaml.\n` +
      `Check it with \`hermes mcp test ${name}\`; running sessions pick it up with /reload-mcp.\n`),
  );
}

/** A URL as it may be shown: a query string or user:password in it may carry a key. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(the URL given)';
  }
}

async function remove(client: HermesClient, io: ChatIo, name: string): Promise<void> {
  const servers = await configured(client);
  if (!Object.hasOwn(servers, name)) throw notConfigured(name, servers);
  await setServer(client, name, null);
  io.stdout.write(`Removed MCP server ${name} from config.yaml; running sessions drop it with /reload-mcp.\n`);
}

async function test(client: HermesClient, io: ChatIo, name: string): Promise<number> {
  let result;
  try {
    result = await client.request('mcp.test', { name });
  } catch (error) {
    if (errorCode(error) === ErrorCode.UsageError) throw new CommandFailure(`hermes mcp test: ${(error as Error).message}`, 1);
    throw error;
  }
  if (!result.ok) {
    io.stderr.write(plainText(`hermes mcp test: ${name} failed after ${result.latency_ms} ms: ${result.error ?? 'unknown error'}\n`));
    return 1;
  }
  io.stdout.write(plainText(`${name}: connected in ${result.latency_ms} ms; ${result.tools.length} tool(s)${result.tools.length ? `: ${result.tools.join(', ')}` : ''}\n`));
  return 0;
}

/**
 * config.set of `mcp_servers.<name>`. A name or entry the backend refuses (its refusal names the key)
 * is a usage error (exit 2); config.yaml that cannot be edited (not valid YAML, unwritable) is a failure (1).
 */
async function setServer(client: HermesClient, name: string, value: Record<string, unknown> | null): Promise<void> {
  try {
    await client.request('config.set', { key: `mcp_servers.${name}`, value });
  } catch (error) {
    const code = errorCode(error);
    const message = (error as Error).message;
    const refusedEntry = code === ErrorCode.InvalidParams || (code === ErrorCode.UsageError && message.startsWith(`config.set mcp_servers.${name}`));
    if (refusedEntry || code === ErrorCode.UsageError) throw new CommandFailure(`hermes mcp: ${message}`, refusedEntry ? 2 : 1);
    throw error;
  }
}

function notConfigured(name: string, servers: Record<string, unknown>): CommandFailure {
  const known = Object.keys(servers);
  return new CommandFailure(`hermes mcp: config.yaml has no MCP server named "${name}" (configured: ${known.join(', ') || 'none'})`, 1);
}

/** Exit codes: 0 done, 1 failed (not found, connection failed), 2 usage. */
export function runMcp(argv: string[], given: McpServerOptions | undefined, backend: BackendOptions, io: ChatIo, logger: Logger): Promise<number> {
  return runPlanned('hermes mcp', () => plan(argv, given), backend, io, logger);
}
