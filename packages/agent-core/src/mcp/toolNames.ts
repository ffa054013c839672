/**
 * Registry names of MCP tools: `mcp_<server>_<tool>`, within the providers' name rules (OpenAI's
 * `^[a-zA-Z0-9_-]{1,64}$`, the registry's own check). A name that had to be cut, that another
 * tool already holds, or that a server configured earlier could also produce, ends in a short hash of
 * the server and tool, so it stays the same across restarts and whichever server connects first.
 */
import { createHash } from 'node:crypto';
import { MCP_TOOLSET_PREFIX } from '../tools/toolsets.ts';

const MAX_NAME = 64;
const HASH_LENGTH = 8;

/** Letters, digits, `_` and `-`; anything else becomes `_`. */
export function sanitizeName(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean === '' ? '_' : clean;
}

function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * The registry name for `tool` of `server`; `taken` says whether a name is held by another tool
 * (a built-in, a plugin's, another server's).
 */
export function mcpToolName(server: string, tool: string, taken: (name: string) => boolean): string {
  const plain = `mcp_${sanitizeName(server)}_${sanitizeName(tool)}`;
  if (plain.length <= MAX_NAME && !taken(plain)) return plain;
  const suffix = `_${shortHash(server, tool)}`;
  return `${plain.slice(0, MAX_NAME - suffix.length)}${suffix}`;
}

/**
 * Whether `name` could also be a tool of one of `earlierServers` (config order): server `a` tool
 * `b_wipe` and server `a_b` tool `wipe` are both mcp_a_b_wipe. The later server's tool takes the
 * hashed name even before the earlier server connects, so names never depend on connect order.
 */
export function claimedByEarlier(name: string, earlierServers: string[]): boolean {
  return earlierServers.some((server) => name.startsWith(`mcp_${sanitizeName(server)}_`));
}

/** The toolset of a server's tools. */
export const mcpToolset = (server: string) => `${MCP_TOOLSET_PREFIX}${sanitizeName(server)}`;

/**
 * A short hash of what a server is (its command line, or its URL): approvals remember a tool as
 * `<tool>#<fingerprint>`, so another server configured later under the same name does not inherit them.
 */
export function serverFingerprint(server: { command?: string; args: string[]; url?: string }): string {
  const identity = server.command ? JSON.stringify([server.command, ...server.args]) : JSON.stringify(server.url ?? '');
  return createHash('sha256').update(identity).digest('hex').slice(0, HASH_LENGTH);
}
