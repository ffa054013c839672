/**
 * `mcp_servers:` and `mcp_discovery_timeout` in config.yaml, with Hermes's keys (docs/mcp.md). Parsed
 * from the plain data of the whole file; wrong values and unknown keys are config problems and the
 * server keeps its defaults (or is left out when it cannot be used at all).
 */
import type { ConfigProblem } from '../config/loadConfig.ts';

export interface McpToolPolicy {
  /** Only these server tools (by the server's own name); wins over `exclude`. */
  include?: string[];
  exclude?: string[];
  /** Register `mcp_<server>_list_resources`/`_read_resource` when the server has resources. */
  resources: boolean;
  /** Register `mcp_<server>_list_prompts`/`_get_prompt` when the server has prompts. */
  prompts: boolean;
}

export interface McpServerConfig {
  name: string;
  enabled: boolean;
  transport: 'stdio' | 'http';
  command?: string;
  args: string[];
  /** Values as written: they may hold `${VAR}`, resolved when the server starts. */
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  /** Values as written (may hold `${VAR}`). */
  headers: Record<string, string>;
  /** Seconds one tool call may take before it is cancelled. */
  timeoutS: number;
  /** Seconds to connect and initialize before the attempt counts as failed. */
  connectTimeoutS: number;
  tools: McpToolPolicy;
  /** The server's tools may run in parallel with other read-only calls. */
  supportsParallelToolCalls: boolean;
  /** `ask`: every call of this server asks the human; `auto`: only destructive tools do. */
  approval: 'ask' | 'auto';
}

import { MCP_SERVER_NOT_IMPLEMENTED } from '../config/unknownKeys.ts';

export const MCP_DEFAULTS = { timeoutS: 120, connectTimeoutS: 60, discoveryTimeoutS: 5 } as const;

/** The keys a server entry may have; anything else is reported as unknown. */
const SERVER_KEYS = [
  'command', 'args', 'env', 'cwd', 'url', 'headers', 'enabled', 'timeout', 'connect_timeout', 'tools',
  'supports_parallel_tool_calls', 'approval',
] as const;
const TOOLS_KEYS = ['include', 'exclude', 'resources', 'prompts'] as const;
/** A server name: its tools are `mcp_<server>_<tool>`, within the providers' tool-name rules (as `hermes mcp add` checks). */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Finds the line of a key path in the file, when the caller has the document. */
export type KeyLine = (keyPath: string[]) => number | undefined;

export function parseMcpServers(
  raw: Record<string, unknown>,
  file: string,
  lineOf: KeyLine = () => undefined,
): { servers: McpServerConfig[]; discoveryTimeoutS: number; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const problem = (keyPath: string[], kind: 'value' | 'unknown_key', message: string) => {
    const line = lineOf(keyPath);
    problems.push({ file, ...(line ? { line } : {}), kind, message });
  };

  let discoveryTimeoutS: number = MCP_DEFAULTS.discoveryTimeoutS;
  const discovery = raw.mcp_discovery_timeout;
  if (discovery !== undefined && discovery !== null) {
    if (isPositiveNumber(discovery)) discoveryTimeoutS = discovery;
    else problem(['mcp_discovery_timeout'], 'value', `\`mcp_discovery_timeout\` must be a number of seconds above 0 (found ${JSON.stringify(discovery)}); the default ${MCP_DEFAULTS.discoveryTimeoutS} applies`);
  }

  const servers: McpServerConfig[] = [];
  const section = raw.mcp_servers;
  if (section === undefined || section === null) return { servers, discoveryTimeoutS, problems };
  if (!isMapping(section)) {
    problem(['mcp_servers'], 'value', `\`mcp_servers\` must be a mapping of server names to their settings (mcp_servers:, then indented name: lines), found ${JSON.stringify(section)}; no MCP server is used`);
    return { servers, discoveryTimeoutS, problems };
  }

  for (const [name, entry] of Object.entries(section)) {
    const at = (...keys: string[]) => ['mcp_servers', name, ...keys];
    const key = (...keys: string[]) => `mcp_servers.${[name, ...keys].join('.')}`;
    if (!MCP_SERVER_NAME.test(name)) {
      problem(at(), 'value', `the MCP server name ${JSON.stringify(name)} under \`mcp_servers\` must be 1 to 64 letters, digits, _ or - (its tools are named mcp_<server>_<tool>): rename it; this server is not used`);
      continue;
    }
    if (!isMapping(entry)) {
      problem(at(), 'value', `\`${key()}\` must be a mapping with \`command\` (a local server) or \`url\` (a remote one), found ${JSON.stringify(entry)}; this server is not used`);
      continue;
    }
    for (const sub of Object.keys(entry)) {
      // Hermes's own keys hermes does not implement are listed by doctor (LoadedConfig.notImplemented), not typos.
      if ((SERVER_KEYS as readonly string[]).includes(sub) || MCP_SERVER_NOT_IMPLEMENTED.includes(sub)) continue;
      problem(at(sub), 'unknown_key', `unknown key \`${key(sub)}\` (hermes ignores it; an MCP server takes ${SERVER_KEYS.join(', ')})`);
    }
    const text = (sub: string): string | undefined => {
      const value = entry[sub];
      if (value === undefined || value === null) return undefined;
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      problem(at(sub), 'value', `\`${key(sub)}\` must be a non-empty string (found ${JSON.stringify(value)})`);
      return undefined;
    };
    const command = text('command');
    const url = text('url');
    if (command && url) {
      problem(at('url'), 'value', `\`${key()}\` has both \`command\` and \`url\`: keep \`command\` for a server hermes starts, or \`url\` for one it connects to; this server is not used`);
      continue;
    }
    if (!command && !url) {
      problem(at(), 'value', `\`${key()}\` needs \`command\` (a server hermes starts, with \`args\`) or \`url\` (a Streamable HTTP or SSE endpoint); this server is not used`);
      continue;
    }
    if (url && !isHttpUrl(url)) {
      problem(at('url'), 'value', `\`${key('url')}\` must be an http:// or https:// URL (found ${JSON.stringify(url)}); this server is not used`);
      continue;
    }
    const cwd = text('cwd');
    const tools = entry.tools;
    const toolsMap = tools === undefined || tools === null ? {} : isMapping(tools) ? tools : undefined;
    if (!toolsMap) problem(at('tools'), 'value', `\`${key('tools')}\` must be a mapping (include, exclude, resources, prompts), found ${JSON.stringify(tools)}; all the server's tools are used`);
    for (const sub of Object.keys(toolsMap ?? {})) {
      if (!(TOOLS_KEYS as readonly string[]).includes(sub)) problem(at('tools', sub), 'unknown_key', `unknown key \`${key('tools', sub)}\` (hermes ignores it; \`tools\` takes ${TOOLS_KEYS.join(', ')})`);
    }
    const include = nameList(toolsMap?.include, () => problem(at('tools', 'include'), 'value', `\`${key('tools', 'include')}\` must be a tool name or a list of tool names (found ${JSON.stringify(toolsMap?.include)}); it is ignored`));
    const exclude = nameList(toolsMap?.exclude, () => problem(at('tools', 'exclude'), 'value', `\`${key('tools', 'exclude')}\` must be a tool name or a list of tool names (found ${JSON.stringify(toolsMap?.exclude)}); it is ignored`));
    const flag = (value: unknown, keys: string[], fallback: boolean): boolean => {
      if (value === undefined || value === null) return fallback;
      const parsed = boolLike(value);
      if (parsed !== undefined) return parsed;
      problem(at(...keys), 'value', `\`${key(...keys)}\` must be true or false (found ${JSON.stringify(value)}); ${fallback} applies`);
      return fallback;
    };
    const seconds = (sub: string, fallback: number): number => {
      const value = entry[sub];
      if (value === undefined || value === null) return fallback;
      if (isPositiveNumber(value)) return value;
      problem(at(sub), 'value', `\`${key(sub)}\` must be a number of seconds above 0 (found ${JSON.stringify(value)}); the default ${fallback} applies`);
      return fallback;
    };
    let approval: 'ask' | 'auto' = 'auto';
    if (entry.approval !== undefined && entry.approval !== null) {
      if (entry.approval === 'ask' || entry.approval === 'auto') approval = entry.approval;
      else problem(at('approval'), 'value', `\`${key('approval')}\` must be ask (every call asks you) or auto (only destructive tools ask), found ${JSON.stringify(entry.approval)}; auto applies`);
    }
    servers.push({
      name,
      enabled: flag(entry.enabled, ['enabled'], true),
      transport: command ? 'stdio' : 'http',
      ...(command ? { command } : {}),
      args: stringList(entry.args, () => problem(at('args'), 'value', `\`${key('args')}\` must be a list of strings (found ${JSON.stringify(entry.args)}); the server starts without arguments`)),
      env: stringMap(entry.env, (detail) => problem(at('env'), 'value', `\`${key('env')}\` ${detail}`)),
      ...(cwd ? { cwd } : {}),
      ...(url ? { url } : {}),
      headers: stringMap(entry.headers, (detail) => problem(at('headers'), 'value', `\`${key('headers')}\` ${detail}`)),
      timeoutS: seconds('timeout', MCP_DEFAULTS.timeoutS),
      connectTimeoutS: seconds('connect_timeout', MCP_DEFAULTS.connectTimeoutS),
      tools: {
        ...(include ? { include } : {}),
        ...(exclude ? { exclude } : {}),
        resources: flag(toolsMap?.resources, ['tools', 'resources'], true),
        prompts: flag(toolsMap?.prompts, ['tools', 'prompts'], true),
      },
      supportsParallelToolCalls: flag(entry.supports_parallel_tool_calls, ['supports_parallel_tool_calls'], false),
      approval,
    });
  }
  return { servers, discoveryTimeoutS, problems };
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Hermes's "bool-like": true/false, and the usual words for them. */
function boolLike(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(word)) return true;
  if (['false', 'no', 'off', '0'].includes(word)) return false;
  return undefined;
}

/** Scalars YAML may have typed (`PORT: 8080`, `- 3`) are the text the user wrote. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function stringList(value: unknown, onWrong: () => void): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value.map(scalarText) : undefined;
  if (items && items.every((item) => item !== undefined)) return items as string[];
  onWrong();
  return [];
}

/** A tool name or a list of them (Hermes accepts both); undefined when absent or wrong. */
function nameList(value: unknown, onWrong: () => void): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return [value.trim()];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.map((item) => item.trim());
  onWrong();
  return undefined;
}

function stringMap(value: unknown, onWrong: (detail: string) => void): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isMapping(value)) {
    onWrong(`must be a mapping of names to values (found ${JSON.stringify(value)}); it is ignored`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    const text = scalarText(item);
    // The value is not echoed: it may be a secret.
    if (text === undefined) onWrong(`\`${name}\` must be a string (it is ${item === null ? 'empty' : Array.isArray(item) ? 'a list' : typeof item}); it is left out`);
    else out[name] = text;
  }
  return out;
}
