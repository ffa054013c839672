/** The core toolsets: what `config.yaml`'s `toolsets` list selects from. */
export const CORE_TOOLSETS: Readonly<Record<string, string>> = {
  terminal: 'Run shell commands and manage background processes',
  file: 'Read, write and patch files',
  search: 'Search file contents and names',
  todo: 'Keep a task list for the session',
  memory: 'Remember facts across sessions',
  clarify: 'Ask the user a question',
  session_search: 'Search past conversations',
  skills: 'List and load skills (task instructions)',
};

/** The toolsets of MCP servers' tools are `mcp-<server>` (mcp/toolNames.ts). */
export const MCP_TOOLSET_PREFIX = 'mcp-';

/** Names that stand for several toolsets (Hermes' default config says `hermes-cli`). */
export const TOOLSET_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'hermes-cli': Object.keys(CORE_TOOLSETS),
};

/**
 * Hermes's toolsets (shared/reference/hermes-core.md §6.3) hermes does not have: a Hermes config naming
 * them is not mistaken, they are skipped and `hermes doctor` lists them (a plugin may provide one).
 */
const HERMES_ONLY_TOOLSETS = new Set([
  'web', 'vision', 'image_gen', 'browser', 'cronjob', 'tts', 'code_execution', 'delegation', 'debugging', 'safe', 'coding',
  'homeassistant', 'kanban', 'computer_use', 'hermes-telegram', 'hermes-discord', 'hermes-slack', 'hermes-whatsapp', 'hermes-gateway',
]);

export interface ToolsetSelection {
  /** The toolsets selected, aliases expanded. */
  names: Set<string>;
  /** One line per unknown name, listing the known ones. */
  problems: string[];
  /** Selected Hermes toolsets hermes does not have (skipped, not problems). */
  notImplemented: string[];
}

/**
 * Resolves a selection against the toolsets that exist (`known`). No selection means every known
 * toolset, so tools a plugin registers in its own toolset are offered unless the user narrows the list.
 */
export function resolveToolsets(selection: readonly string[] | undefined, known: Iterable<string>): ToolsetSelection {
  const knownSet = new Set(known);
  if (selection === undefined) return { names: knownSet, problems: [], notImplemented: [] };
  const names = new Set<string>();
  const problems: string[] = [];
  const notImplemented: string[] = [];
  for (const raw of selection) {
    const name = raw.trim();
    const alias = TOOLSET_ALIASES[name];
    if (alias) {
      alias.forEach((n) => names.add(n));
      // As in Hermes, MCP servers' tools join the platform toolset: `toolsets: [hermes-cli]` (its default) offers them.
      if (name === 'hermes-cli') for (const known of knownSet) if (known.startsWith(MCP_TOOLSET_PREFIX)) names.add(known);
    } else if (knownSet.has(name)) names.add(name);
    else if (HERMES_ONLY_TOOLSETS.has(name)) notImplemented.push(name);
    else {
      const list = [...knownSet, ...Object.keys(TOOLSET_ALIASES)].sort().join(', ');
      problems.push(`Unknown toolset "${name}" in \`toolsets\`; known toolsets: ${list}`);
    }
  }
  return { names, problems, notImplemented };
}

/**
 * Why an MCP server's tools are not offered, or null when they are. As in Hermes, a `toolsets:` list
 * without `hermes-cli` or `mcp-<server>` leaves the server's tools out; the status says so and how to add them.
 */
export function mcpToolsetNote(selection: readonly string[] | undefined, toolset: string): string | null {
  if (selection === undefined || resolveToolsets(selection, [toolset]).names.has(toolset)) return null;
  return `its tools are not offered to the model: \`toolsets\` in config.yaml leaves out ${toolset}; add ${toolset} (or hermes-cli, which includes every MCP server) to it`;
}
