/**
 * Commands under test run against a real session service (liveSessionRig); the host part, which the
 * front end implements (rpc-server's is covered by the wire tests), records what it was asked.
 */
import type { LiveSessionRig } from '../testing/liveSessionRig.ts';
import type { CommandHost, CommandScope } from './commandTypes.ts';

export interface RecordingHost extends CommandHost {
  calls: string[];
}

export function recordingHost(): RecordingHost {
  const calls: string[] = [];
  return {
    calls,
    newSession: (title) => (calls.push(`newSession(${title ?? ''})`), 'wire-new'),
    openBranch: (branched, parentId) => (calls.push(`openBranch(${branched.title ?? ''},${parentId})`), 'wire-branch'),
    listTools: () => (calls.push('listTools'), 'tools text'),
    listToolsets: () => (calls.push('listToolsets'), 'toolsets text'),
    listPlugins: () => (calls.push('listPlugins'), 'plugins text'),
    listSkills: () => (calls.push('listSkills'), 'skills text'),
    reloadPlugins: async () => (calls.push('reloadPlugins'), 'reloaded 2 plugins'),
    mcpServers: () => (calls.push('mcpServers'), []),
    reloadMcp: async () => (calls.push('reloadMcp'), 'reloaded 0 MCP servers'),
  };
}

export function scopeOf(rig: LiveSessionRig, host: CommandHost = recordingHost()): CommandScope {
  return { session: rig.service, host };
}
