import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { LineCounter, parseDocument, isMap, isScalar, visit, type Document } from 'yaml';
import { configValue } from './configLookup.ts';
import { hermesHome } from './hermesHome.ts';
import { decodeConfigText, envFileProblems, NOT_UTF8 } from './fileText.ts';
import { findUnknownKeys, notImplementedKeys } from './unknownKeys.ts';
import { cleanValue, describeKind, fits, type Check } from './settingChecks.ts';
import type { ApprovalMode } from '../contract/approvals.ts';
import { modelFromConfigString } from '../liveSession/modelValue.ts';
import { MCP_DEFAULTS, parseMcpServers, type McpServerConfig } from '../mcp/mcpConfig.ts';

/** The settings hermes reads from `config.yaml` (unknown keys are kept in `raw` and ignored). */
export interface HermesConfig {
  model: {
    provider?: string;
    default?: string;
    base_url?: string;
    /** Overrides the known context window of the model (tokens). */
    context_length?: number;
    /** USD per million tokens, for the cost in usage. */
    input_cost_per_million?: number;
    output_cost_per_million?: number;
  };
  compression: {
    /** Compress when the prompt passes this share of the context window. */
    threshold: number;
    enabled: boolean;
  };
  agent: {
    /** Model calls allowed in one user turn. */
    max_turns: number;
    api_max_retries: number;
    /** Seconds without a byte from the model before the stream is aborted and retried. */
    stream_stall_timeout: number;
    /** Seconds of the first retry back-off (it doubles, with jitter). */
    retry_base_delay: number;
  };
  terminal: {
    /** Seconds a foreground command may run before it is killed. */
    timeout: number;
    /** Variables commands get although hermes withholds them (provider keys, `.env` variables). */
    env_passthrough: string[];
  };
  tool_output: {
    /** Caps on what one tool result hands the model; the rest is cut with a note. */
    max_bytes: number;
    max_lines: number;
  };
  approvals: {
    /** `manual`: dangerous commands ask the human; `smart`: a guardian model decides first; `off`: they run (hardline ones never do). */
    mode: ApprovalMode;
    /** Seconds to wait for an answer; no answer is a denial. */
    timeout: number;
    /** Smart mode: after this many guardian denials in a session, the human is asked instead. */
    denial_breaker_threshold: number;
  };
  /** Side models for side tasks; each defaults to the session's own model. */
  auxiliary: {
    /** Smart approval's guardian (docs/approvals.md). */
    approval: { provider?: string; model?: string; base_url?: string; /** Seconds to wait for its verdict. */ timeout: number };
  };
  sessions: {
    /** Seconds without a request or a running turn before an open session is closed (0: never). */
    idle_close: number;
    /** Open sessions kept at most; past it the least recently used idle ones are closed. */
    max_open: number;
  };
  /** `rule@target` keys the user approved with "always" (older description keys still count; see approvals/allowlist.ts). */
  command_allowlist: string[];
  /** Toolsets offered to the model; absent means all core toolsets. */
  toolsets?: string[];
  /** `mcp_servers:` (docs/mcp.md), in file order. */
  mcp_servers: McpServerConfig[];
  /** Seconds the first model call of a turn waits for MCP servers still connecting. */
  mcp_discovery_timeout: number;
  raw: Record<string, unknown>;
}

/**
 * What kind of mistake: `syntax` (the file is not valid YAML, or not a mapping: all of it is ignored),
 * `value` (one setting is wrong: its default applies), `unknown_key` (nothing reads it), `unreadable`.
 */
export type ConfigProblemKind = 'syntax' | 'value' | 'unknown_key' | 'unreadable';

/** A mistake in a config file that the user must fix; hermes runs on with defaults meanwhile. */
export interface ConfigProblem {
  file: string;
  line?: number;
  message: string;
  kind?: ConfigProblemKind;
}

export interface LoadedConfig {
  home: string;
  config: HermesConfig;
  /** Secrets from `$HERMES_HOME/.env`; the process environment wins over them. */
  dotenv: Record<string, string>;
  problems: ConfigProblem[];
  /** Hermes keys config.yaml sets that hermes does not implement (not problems: `hermes doctor` lists them). */
  notImplemented: string[];
}

export const DEFAULT_CONFIG: Omit<HermesConfig, 'raw'> = {
  model: {},
  agent: { max_turns: 90, api_max_retries: 3, stream_stall_timeout: 90, retry_base_delay: 1 },
  compression: { threshold: 0.5, enabled: true },
  terminal: { timeout: 180, env_passthrough: [] },
  tool_output: { max_bytes: 50_000, max_lines: 2_000 },
  approvals: { mode: 'manual', timeout: 300, denial_breaker_threshold: 3 },
  auxiliary: { approval: { timeout: 20 } },
  sessions: { idle_close: 30 * 60, max_open: 32 },
  command_allowlist: [],
  mcp_servers: [],
  mcp_discovery_timeout: MCP_DEFAULTS.discoveryTimeoutS,
};

export function formatProblem(problem: ConfigProblem): string {
  return `${problem.file}${problem.line ? ` line ${problem.line}` : ''}: ${problem.message}`;
}


const CHECKS: Check[] = [
  { key: 'model.provider', kind: 'string' },
  { key: 'model.default', kind: 'string' },
  { key: 'model.base_url', kind: 'string' },
  { key: 'agent.max_turns', kind: 'positive-int' },
  { key: 'agent.api_max_retries', kind: 'non-negative-int' },
  { key: 'agent.stream_stall_timeout', kind: 'positive-number' },
  { key: 'agent.retry_base_delay', kind: 'non-negative-number' },
  { key: 'model.context_length', kind: 'positive-int' },
  { key: 'model.input_cost_per_million', kind: 'non-negative-number' },
  { key: 'model.output_cost_per_million', kind: 'non-negative-number' },
  { key: 'compression.threshold', kind: 'fraction' },
  { key: 'compression.enabled', kind: 'boolean' },
  { key: 'terminal.timeout', kind: 'positive-number' },
  { key: 'terminal.env_passthrough', kind: 'string-list' },
  { key: 'tool_output.max_bytes', kind: 'positive-int' },
  { key: 'tool_output.max_lines', kind: 'positive-int' },
  { key: 'approvals.mode', kind: 'approval-mode' },
  { key: 'approvals.timeout', kind: 'positive-number' },
  { key: 'approvals.denial_breaker_threshold', kind: 'positive-int' },
  { key: 'auxiliary.approval.provider', kind: 'string' },
  { key: 'auxiliary.approval.model', kind: 'string' },
  { key: 'auxiliary.approval.base_url', kind: 'string' },
  { key: 'auxiliary.approval.timeout', kind: 'positive-number' },
  { key: 'sessions.idle_close', kind: 'duration' },
  { key: 'sessions.max_open', kind: 'positive-int' },
  { key: 'command_allowlist', kind: 'string-list' },
  { key: 'toolsets', kind: 'string-list' },
];

/** Larger settings files are not read: parsing them would hold up startup, and none is this big on purpose. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Unknown keys named one by one; past this count the rest are only counted. */
const MAX_UNKNOWN_KEYS_NAMED = 20;

/** Keys whose settings are checked one by one (`agent`, `auxiliary.approval`): each must be a mapping. */
const SECTIONS = [...new Set(CHECKS.flatMap((c) => c.key.split('.').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('.'))))];

/** Reads `$HERMES_HOME/config.yaml` and `.env`. Never throws on bad content: it reports problems. */
export function loadConfig(home: string = hermesHome()): LoadedConfig {
  const problems: ConfigProblem[] = [];
  let notImplemented: string[] = [];
  const configFile = path.join(home, 'config.yaml');
  const config: HermesConfig = {
    model: { ...DEFAULT_CONFIG.model },
    agent: { ...DEFAULT_CONFIG.agent },
    terminal: { ...DEFAULT_CONFIG.terminal },
    tool_output: { ...DEFAULT_CONFIG.tool_output },
    approvals: { ...DEFAULT_CONFIG.approvals },
    auxiliary: { approval: { ...DEFAULT_CONFIG.auxiliary.approval } },
    sessions: { ...DEFAULT_CONFIG.sessions },
    compression: { ...DEFAULT_CONFIG.compression },
    command_allowlist: [],
    mcp_servers: [],
    mcp_discovery_timeout: DEFAULT_CONFIG.mcp_discovery_timeout,
    raw: {},
  };

  let text: string | null = null;
  try {
    const decoded = decodeConfigText(readSettingsFile(configFile));
    text = decoded.text;
    if (decoded.badLine) problems.push({ file: configFile, line: decoded.badLine, kind: 'value', message: NOT_UTF8 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push({ file: configFile, kind: 'unreadable', message: unreadable(configFile, error) });
    }
  }

  if (text !== null && text.trim() !== '') {
    const lineCounter = new LineCounter();
    // The yaml package's own duplicate-key check compares every key with every other (minutes for a
    // file of many thousand keys); duplicates are found below in one pass instead.
    // `merge`: PyYAML, which reads Hermes's config.yaml, honours merge keys (`<<: *defaults`).
    const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, merge: true });
    const duplicate = firstDuplicateKey(doc, lineCounter);
    if (duplicate) {
      problems.push({
        file: configFile,
        line: duplicate.line,
        kind: 'syntax',
        message: `sets \`${duplicate.key}\` a second time (first on line ${duplicate.firstLine}). Fix: keep one of the two; until then hermes ignores config.yaml and runs with default settings.`,
      });
    } else if (doc.errors.length > 0) {
      // Later errors are mostly echoes of the first; fixing it is the next step either way.
      const err = doc.errors[0]!;
      const { line, col } = lineCounter.linePos(err.pos[0]);
      const more = doc.errors.length > 1 ? ` (and ${doc.errors.length - 1} more after it)` : '';
      problems.push({
        file: configFile,
        line,
        kind: 'syntax',
        message: `is not valid YAML at column ${col}: ${err.message.split('\n')[0]}${more}. Fix that line (check the indentation, quotes and brackets there); until then hermes ignores config.yaml and runs with default settings.`,
      });
    } else if (doc.contents === null) {
      // Only comments: as good as an empty file.
    } else if (!isMap(doc.contents)) {
      problems.push({
        file: configFile,
        kind: 'syntax',
        message: 'must be a mapping of settings (key: value), not a list or a scalar; hermes ignores it and runs with default settings.',
      });
    } else {
      const raw = doc.toJS() as Record<string, unknown>;
      config.raw = raw;
      // `model: gpt-4o` is shorthand for `model: {default: gpt-4o}`, and `model: ollama/llama3.1` for
      // `{provider: ollama, default: llama3.1}`, as in Hermes.
      if (typeof raw.model === 'string') {
        const { provider, model } = modelFromConfigString(raw.model);
        config.model.default = model;
        if (provider) config.model.provider = provider;
      }
      for (const section of SECTIONS) {
        const value = configValue(raw, section);
        if (value === undefined || value === null || (section === 'model' && typeof value === 'string')) continue;
        if (typeof value === 'object' && !Array.isArray(value)) continue;
        problems.push({
          file: configFile,
          line: keyLine(doc, section.split('.'), lineCounter),
          kind: 'value',
          message: `\`${section}\` must be a mapping of settings (${section}:, then indented key: value lines), found ${JSON.stringify(value)}; its settings keep their defaults`,
        });
      }
      for (const check of CHECKS) {
        const keyPath = check.key.split('.');
        if (check.key.startsWith('model.') && typeof raw.model === 'string') continue;
        const node = doc.getIn(keyPath, true) as { range?: [number, number, number] } | undefined;
        // From the plain JS view: getIn() would hand back YAML nodes for lists and maps.
        const value = configValue(raw, check.key);
        if (value === undefined || value === null) continue;
        const line = node?.range ? lineCounter.linePos(node.range[0]).line : undefined;
        if (!fits(value, check)) {
          problems.push({
            file: configFile,
            line,
            kind: 'value',
            message: `\`${check.key}\` must be ${describeKind(check)} (found ${JSON.stringify(value)})`,
          });
          continue;
        }
        const clean = cleanValue(value, check);
        // Sections exist in `config` (defaults above), so the path leads to an object up to its last key.
        const parent = keyPath.slice(0, -1).reduce<Record<string, unknown>>((v, k) => v[k] as Record<string, unknown>, config as unknown as Record<string, unknown>);
        parent[keyPath.at(-1)!] = clean;
      }
      const mcp = parseMcpServers(raw, configFile, (keyPath) => keyLine(doc, keyPath, lineCounter));
      config.mcp_servers = mcp.servers;
      config.mcp_discovery_timeout = mcp.discoveryTimeoutS;
      problems.push(...mcp.problems);
      const unknownKeys = findUnknownKeys(raw, CHECKS.map((c) => c.key));
      notImplemented = notImplementedKeys(raw, CHECKS.map((c) => c.key));
      // Each is looked up in the document to give its line: a file of many thousand stray keys
      // (generated, pasted) would stall startup, and a screen of warnings helps nobody.
      for (const unknown of unknownKeys.slice(0, MAX_UNKNOWN_KEYS_NAMED)) {
        problems.push({
          file: configFile,
          line: keyLine(doc, unknown.path, lineCounter),
          kind: 'unknown_key',
          message: `unknown key \`${unknown.key}\`${unknown.suggestion ? ` — did you mean \`${unknown.suggestion}\`?` : ''} (hermes ignores it)`,
        });
      }
      if (unknownKeys.length > MAX_UNKNOWN_KEYS_NAMED) {
        problems.push({
          file: configFile,
          kind: 'unknown_key',
          message: `${unknownKeys.length - MAX_UNKNOWN_KEYS_NAMED} more unknown keys after these (hermes ignores them)`,
        });
      }
    }
  }

  const envFile = path.join(home, '.env');
  let dotenv: Record<string, string> = {};
  try {
    const { text: envText, badLine } = decodeConfigText(readSettingsFile(envFile));
    dotenv = parseEnv(envText) as Record<string, string>;
    if (badLine) problems.push({ file: envFile, line: badLine, kind: 'value', message: NOT_UTF8 });
    for (const problem of envFileProblems(envText)) problems.push({ file: envFile, kind: 'value', ...problem });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push({ file: envFile, kind: 'unreadable', message: unreadable(envFile, error) });
    }
  }

  return { home, config, dotenv, problems, notImplemented };
}

/** The value at a key path in plain data (undefined when a step is missing or not a mapping). */
/** The bytes of a settings file, refused (EFBIG) past MAX_CONFIG_BYTES without reading them. */
function readSettingsFile(file: string): Buffer {
  const stat = fs.statSync(file);
  // A pipe or a device would block startup on a read that never ends (a folder gets its own message).
  if (!stat.isFile() && !stat.isDirectory()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTREG' });
  if (stat.size > MAX_CONFIG_BYTES) throw Object.assign(new Error(`${file} is ${stat.size} bytes`), { code: 'EFBIG', size: stat.size });
  return fs.readFileSync(file);
}

/** The first key written twice in one mapping (which YAML forbids), with both lines. */
function firstDuplicateKey(doc: Document, lines: LineCounter): { key: string; line?: number; firstLine?: number } | undefined {
  let found: { key: string; line?: number; firstLine?: number } | undefined;
  visit(doc, {
    Map(_, map) {
      const seen = new Map<unknown, number | undefined>();
      for (const item of map.items) {
        // Several merge keys in one mapping are allowed (each merges its mapping in).
        if (!isScalar(item.key) || item.key.value === '<<') continue;
        const line = item.key.range ? lines.linePos(item.key.range[0]).line : undefined;
        if (seen.has(item.key.value)) {
          found = { key: String(item.key.value), line, firstLine: seen.get(item.key.value) };
          return visit.BREAK;
        }
        seen.set(item.key.value, line);
      }
      return undefined;
    },
  });
  return found;
}

/** The line where the last key of `keyPath` is written. */
function keyLine(doc: Document, keyPath: string[], lines: LineCounter): number | undefined {
  const parent = keyPath.length === 1 ? doc.contents : doc.getIn(keyPath.slice(0, -1), true);
  if (!isMap(parent)) return undefined;
  const key = parent.items.find((item) => isScalar(item.key) && item.key.value === keyPath.at(-1))?.key;
  return isScalar(key) && key.range ? lines.linePos(key.range[0]).line : undefined;
}

/** Why a config file could not be read, with the fix for the usual cause (its permissions). */
function unreadable(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return `cannot be read: permission denied. Fix: chmod u+r ${file} (as its owner); until then hermes ignores it.`;
  if (code === 'ENOTREG') return `is not a regular file (a pipe, a socket or a device), so hermes does not read it. Fix: replace it with a plain file (or remove it); until then hermes ignores it.`;
  if (code === 'EFBIG') {
    const size = (error as { size: number }).size;
    return `is ${(size / 1024 / 1024).toFixed(1)} MB; hermes reads settings files of up to ${MAX_CONFIG_BYTES / 1024 / 1024} MB (settings take a few KB). Fix: remove what does not belong in it (pasted output, a log); until then hermes ignores it.`;
  }
  if (code === 'EISDIR') return `is a folder, not a file. Fix: move it aside (mv ${file} ${file}.folder); until then hermes ignores it.`;
  return `cannot be read: ${(error as Error).message}; hermes ignores it until it can.`;
}
