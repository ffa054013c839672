/**
 * Finds keys in config.yaml that nothing reads (typos such as `approvels:`), with the nearest known
 * key as a suggestion. Known keys are the ones hermes checks (loadConfig's CHECKS, passed in) plus
 * the ones below, which other parts of hermes read or Hermes documents and hermes does not implement:
 * those are never reported as typos; the latter are listed by `notImplementedKeys` (for doctor).
 */
import { closest, distance } from 'fastest-levenshtein';

type KnownKeys = Readonly<Record<string, readonly string[] | null>>;

/**
 * Keys loadConfig does not check that other parts of hermes read from the raw config. A section
 * mapped to a list has only those sub-keys (besides the checked ones); `null` leaves its sub-keys alone.
 */
const READ_ELSEWHERE: KnownKeys = {
  // plugin-host (`allow_deprecated_imports` is Hermes's and means nothing here, but it is plugins' own).
  plugins: ['enabled', 'disabled', 'entries', 'hook_callback_timeout', 'register_timeout', 'allow_deprecated_imports'],
  // agent-core/src/mcp (mcpConfig.ts).
  mcp_servers: null,
  mcp_discovery_timeout: null,
};

/**
 * Hermes's config.yaml keys (shared/reference/hermes-core.md §9.3) that hermes does not implement:
 * not typos, so never reported as unknown; `hermes doctor` lists the ones a config sets, once.
 */
const NOT_IMPLEMENTED: KnownKeys = {
  model: ['api_key', 'api_mode', 'max_tokens'],
  agent: ['max_verify_nudges', 'disabled_toolsets'],
  terminal: ['backend', 'cwd'],
  approvals: ['cron_mode', 'single_query_mode', 'unattended_mode', 'deny'],
  compression: ['target_ratio', 'protect_last_n', 'protect_first_n', 'max_attempts', 'in_place'],
  ...Object.fromEntries(
    [
      'providers', 'fallback_providers', 'credential_pool_strategies', 'database', 'runtime', 'max_concurrent_sessions',
      'max_live_sessions', 'session', 'sessions', 'web', 'browser', 'checkpoints', 'context_file_max_chars',
      'context_file_read_timeout', 'file_read_max_chars', 'mcp_single_query_discovery_timeout',
      'mcp', 'tool_loop_guardrails', 'prompt_caching', 'openrouter', 'bedrock', 'auxiliary', 'display',
      'dashboard', 'privacy', 'tts', 'stt', 'voice', 'wake_word', 'human_delay', 'context', 'memory', 'delegation',
      'prefill_messages_file', 'goals', 'loops', 'moa', 'skills', 'curator', 'honcho', 'timezone', 'slack', 'discord',
      'whatsapp', 'telegram', 'mattermost', 'matrix', 'quick_commands', 'platform_hints', 'hooks', 'hooks_auto_accept',
      'personalities', 'security', 'cron', 'kanban', 'bot_mode', 'code_execution', 'tools', 'logging', 'model_catalog',
      'model_overrides', 'models_dev', 'network', 'monitoring', 'gateway', 'streaming', 'onboarding', 'telemetry',
      'doctor', 'updates',
      // In Hermes's config.yaml but not in the reference's list (its last quarter was not read).
      '_config_version', 'custom_providers', 'smart_model_routing', 'fallback_model', 'worktree', 'group_sessions_per_user',
      'background_process_notifications', 'platform_toolsets',
    ].map((key) => [key, null]),
  ),
};

/** Hermes's per-server `mcp_servers.<name>` keys hermes does not implement (MCP sampling, `auth: oauth`). */
export const MCP_SERVER_NOT_IMPLEMENTED: readonly string[] = ['sampling', 'auth'];

export interface UnknownKey {
  /** Dotted path of the unknown key, e.g. `approvels` or `agent.max_turn`. */
  key: string;
  path: string[];
  /** The nearest known key (dotted), when one is close enough to be a likely typo. */
  suggestion?: string;
}

/** Sub-keys known for each section: `null` for a section whose sub-keys are not checked. */
function knownTree(checkedKeys: readonly string[]): Map<string, Set<string> | null> {
  const tree = new Map<string, Set<string> | null>();
  const add = (section: string, sub: string | undefined) => {
    if (!tree.has(section)) tree.set(section, sub === undefined ? null : new Set());
    const subs = tree.get(section);
    if (sub !== undefined && subs) subs.add(sub);
  };
  for (const key of checkedKeys) {
    // Deeper keys (`auxiliary.approval.model`) sit in sections whose sub-keys are left alone (`auxiliary: null`).
    if (key.split('.').length > 2) continue;
    const [section, sub] = key.split('.', 2) as [string, string | undefined];
    add(section, sub);
  }
  for (const [section, subs] of [...Object.entries(READ_ELSEWHERE), ...Object.entries(NOT_IMPLEMENTED)]) {
    if (subs === null) {
      if (!tree.has(section)) tree.set(section, null);
      continue;
    }
    for (const sub of subs) add(section, sub);
  }
  return tree;
}

/** Close enough to be a slip of the keyboard: about a third of the word, at least one edit, at most three. */
function nearest(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const best = closest(word, candidates as string[]);
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return distance(word, best) <= limit ? best : undefined;
}

/** The keys of `raw` (config.yaml as plain data) that no part of hermes reads. */
export function findUnknownKeys(raw: Record<string, unknown>, checkedKeys: readonly string[]): UnknownKey[] {
  const tree = knownTree(checkedKeys);
  const topLevel = [...tree.keys()];
  const found: UnknownKey[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (!tree.has(key)) {
      // A section key written at the top level (`max_turns:`) is pointed to its section.
      const inSection = [...tree.entries()].find(([, subs]) => subs?.has(key));
      const suggestion = nearest(key, topLevel) ?? (inSection ? `${inSection[0]}.${key}` : undefined);
      found.push({ key, path: [key], ...(suggestion ? { suggestion } : {}) });
      continue;
    }
    const subs = tree.get(key);
    if (!subs || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const sub of Object.keys(value)) {
      if (subs.has(sub)) continue;
      const suggestion = nearest(sub, [...subs]);
      found.push({ key: `${key}.${sub}`, path: [key, sub], ...(suggestion ? { suggestion: `${key}.${suggestion}` } : {}) });
    }
  }
  return found;
}

/** Values of a not-implemented key that are what hermes does anyway (`terminal.backend: local`). */
const HONOURED_VALUES: Readonly<Record<string, unknown>> = { 'terminal.backend': 'local' };

/**
 * The keys of `raw` that Hermes defines and hermes does not implement (dotted: `display`,
 * `agent.max_verify_nudges`, `auxiliary.compression`), in file order. A section hermes reads nothing
 * of is one entry; of a section it reads in part (`auxiliary.approval` is checked), the other sub-keys.
 */
export function notImplementedKeys(raw: Record<string, unknown>, checkedKeys: readonly string[]): string[] {
  const checkedSections = new Set(checkedKeys.filter((k) => k.includes('.')).map((k) => k.split('.', 1)[0]!));
  const checked = (dotted: string) => checkedKeys.some((k) => k === dotted || k.startsWith(`${dotted}.`));
  const found: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'mcp_servers') found.push(...mcpServerKeys(value));
    if (!Object.hasOwn(NOT_IMPLEMENTED, key)) continue;
    const subs = NOT_IMPLEMENTED[key];
    if (subs === null && !checkedSections.has(key)) {
      found.push(key);
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [sub, subValue] of Object.entries(value)) {
      const dotted = `${key}.${sub}`;
      const implemented = subs === null ? checked(dotted) : !subs.includes(sub);
      if (!implemented && HONOURED_VALUES[dotted] !== subValue) found.push(dotted);
    }
  }
  return found;
}

/** `mcp_servers.<name>.sampling` and the like: per-server keys of Hermes that hermes does not implement. */
function mcpServerKeys(section: unknown): string[] {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return [];
  return Object.entries(section).flatMap(([name, entry]) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return [];
    return Object.keys(entry)
      .filter((sub) => MCP_SERVER_NOT_IMPLEMENTED.includes(sub))
      .map((sub) => `mcp_servers.${name}.${sub}`);
  });
}
