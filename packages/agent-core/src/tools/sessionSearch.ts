import type { SearchHit } from '../sessions/messageSearch.ts';
import type { ToolDefinition } from './types.ts';

const ROLES = ['user', 'assistant', 'tool'] as const;
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

const when = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function format(hit: SearchHit, index: number, currentSession: string): string {
  const session = hit.title ? `"${hit.title}" (${hit.sessionId})` : hit.sessionId;
  const mark = hit.sessionId === currentSession ? ' [this session]' : '';
  return `${index + 1}. ${when(hit.timestamp)} · session ${session}${mark} · ${hit.role}\n   ${hit.snippet}`;
}

export const sessionSearchTool: ToolDefinition = {
  name: 'session_search',
  toolset: 'session_search',
  description:
    'Search the messages of past conversations (all sessions, this one included) by keywords. Finds words in what the user ' +
    'and assistant wrote, tool names and tool-call arguments; substrings work for Chinese, Japanese and Korean. ' +
    'Use it when the user refers to something discussed before ("like we did last week", "that migration plan"). ' +
    'Returns the best matches with session, role, date and an excerpt, the match marked «like this».',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Keywords or a "quoted phrase"; OR between words widens the search' },
      limit: { type: 'integer', description: `Most matches to return (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})` },
      role: { type: 'string', enum: [...ROLES], description: 'Only messages written by this role' },
    },
    required: ['query'],
  },
  readOnly: true,
  preview: (args) => String(args.query ?? ''),
  handler(args, context) {
    if (!context.sessions) throw new Error('Session search is unavailable here: this run has no session store.');
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (!query) throw new Error('"query" must be a non-empty string of keywords');
    const role = args.role as (typeof ROLES)[number] | undefined;
    if (role !== undefined && !ROLES.includes(role)) throw new Error(`"role" must be one of ${ROLES.join(', ')}`);
    const limit = Math.min(Math.max(Math.trunc(Number(args.limit ?? DEFAULT_LIMIT)) || DEFAULT_LIMIT, 1), MAX_LIMIT);
    const { hits, searchedSince } = context.sessions.searchWithCoverage(query, { limit, ...(role ? { role } : {}) });
    const scope = role ? ` among ${role} messages` : '';
    // Text shorter than three characters is found by reading messages newest first, within a time budget.
    const reach = searchedSince === undefined ? '' : `\nOnly messages since ${when(searchedSince)} were searched: text this short has no index, so older ones were not read.`;
    if (hits.length === 0) return `No stored messages match "${query}"${scope}. Try other or fewer keywords.${reach}`;
    const lines = hits.map((hit, i) => format(hit, i, context.sessionId));
    return `${hits.length} match${hits.length === 1 ? '' : 'es'} for "${query}"${scope}, best first:\n${lines.join('\n')}${reach}`;
  },
};
