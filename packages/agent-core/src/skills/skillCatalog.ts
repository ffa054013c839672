import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import { discoverUserSkills, readSkillFile, SKILL_FILE, skillNameProblem, type SkillFile, type SkillProblem } from './skillFiles.ts';

export interface SkillEntry {
  /** User skills: the plain name; plugin skills: `<plugin>:<skill>`. */
  name: string;
  description: string;
  /** The `SKILL.md`, or for a plugin skill what the plugin registered (a folder is resolved to its `SKILL.md` on view). */
  path: string;
  source: 'user' | 'plugin';
  /** For plugin skills: the plugin that registered it. */
  plugin?: string;
}

export interface PluginSkillInput {
  /** Qualified: `<plugin>:<skill>`. */
  name: string;
  /** A `SKILL.md`, or the folder holding one. Not read until the skill is viewed. */
  path: string;
  description?: string;
}

export interface SkillView {
  name: string;
  path: string;
  /** The skill's body; for a plugin skill, plus a line naming the plugin's other skills. */
  text: string;
  /** Text that looks like a prompt injection; returned anyway, for the caller to log. */
  warnings: string[];
}

/** No installed skill has that name (wire code 4004). */
export class UnknownSkillError extends HermesError {
  constructor(
    readonly skill: string,
    readonly available: string[],
  ) {
    super(
      ErrorCode.UsageError,
      available.length
        ? `Unknown skill "${skill}". Available skills: ${available.join(', ')}.`
        : `Unknown skill "${skill}". No skills are installed (user skills go in $HERMES_HOME/skills/<name>/SKILL.md).`,
    );
    this.name = 'UnknownSkillError';
  }
}

/** Phrases that try to override the model's instructions; matched case-insensitively. */
const INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions?|prompts?|rules|messages?|directions)/i,
  /\byou\s+are\s+now\b/i,
  /\bsystem\s+prompt\b/i,
  /\bnew\s+instructions\s*:/i,
  /<\/?\s*system\s*>/i,
  /\bdo\s+not\s+(?:tell|inform)\s+the\s+user\b/i,
];

/** The phrases in `text` that look like a prompt injection (each once, as written). */
export function findInjectionPhrases(text: string): string[] {
  const hits: string[] = [];
  for (const pattern of INJECTION_PATTERNS) {
    const match = pattern.exec(text);
    if (match && !hits.includes(match[0])) hits.push(match[0].replace(/\s+/g, ' '));
  }
  return hits;
}

export interface SkillCatalogOptions {
  /** Called with each warning as `view` produces it (e.g. `logger.warn`); the warnings are also returned. */
  onWarning?: (message: string) => void;
}

/**
 * One catalog of the user's skills (`$HERMES_HOME/skills/**\/SKILL.md`, listed in the system prompt)
 * and plugin skills (`<plugin>:<skill>`, read-only, loaded only on request).
 */
export class SkillCatalog {
  private user = new Map<string, SkillEntry>();
  private plugin = new Map<string, SkillEntry>();
  private readonly onWarning?: (message: string) => void;

  constructor(options: SkillCatalogOptions = {}) {
    this.onWarning = options.onWarning;
  }

  /** (Re)loads the user skills from `home`; returns the files that could not be used. */
  loadUserSkills(home: string): SkillProblem[] {
    const { skills, problems } = discoverUserSkills(home);
    this.setUserSkills(skills);
    return problems;
  }

  /** Replaces the user skills with already-parsed files. */
  setUserSkills(skills: readonly SkillFile[]): void {
    this.user = new Map(skills.map((s) => [s.name, { name: s.name, description: s.description, path: s.path, source: 'user' as const }]));
  }

  /** Registers a plugin skill under `<plugin>:<skill>`. Throws on a malformed or taken name. */
  addPluginSkill(input: PluginSkillInput): SkillEntry {
    const parts = input.name.split(':');
    if (parts.length !== 2 || !parts[0] || !parts[1]) {
      throw new Error(`Plugin skill name "${input.name}" must be "<plugin>:<skill>" (the skill name must not contain ":")`);
    }
    const [plugin, skill] = parts as [string, string];
    const problem = skillNameProblem(skill) ?? skillNameProblem(plugin);
    if (problem) throw new Error(`Plugin skill "${input.name}": ${problem}`);
    if (this.plugin.has(input.name)) throw new Error(`Plugin skill "${input.name}" is already registered`);
    const entry: SkillEntry = { name: input.name, description: (input.description ?? '').replace(/\s+/g, ' ').trim(), path: path.resolve(input.path), source: 'plugin', plugin };
    this.plugin.set(input.name, entry);
    return entry;
  }

  /** Drops every skill `plugin` registered (on unload/disable), or every plugin's when none is named; returns how many. */
  removePluginSkills(plugin?: string): number {
    let removed = 0;
    for (const entry of [...this.plugin.values()]) {
      if (plugin === undefined || entry.plugin === plugin) {
        this.plugin.delete(entry.name);
        removed++;
      }
    }
    return removed;
  }

  /** Every skill, user skills first, each group sorted by name. */
  list(): SkillEntry[] {
    const byName = (a: SkillEntry, b: SkillEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    return [...[...this.user.values()].sort(byName), ...[...this.plugin.values()].sort(byName)];
  }

  get(name: string): SkillEntry | undefined {
    return this.user.get(name) ?? this.plugin.get(name);
  }

  /**
   * Reads a skill now (files may have changed since discovery). Throws UnknownSkillError listing the
   * available names, or a SkillFileError naming the file when it cannot be read or parsed.
   */
  view(name: string): SkillView {
    const entry = this.get(name.trim());
    if (!entry) throw new UnknownSkillError(name, this.list().map((s) => s.name));
    const fallback = entry.plugin ? entry.name.slice(entry.plugin.length + 1) : entry.name;
    const file = readSkillFile(resolveSkillPath(entry.path), fallback);
    let text = file.body;
    if (entry.plugin) {
      const siblings = [...this.plugin.values()].filter((s) => s.plugin === entry.plugin && s.name !== entry.name).map((s) => s.name).sort();
      const note = siblings.length
        ? `Other skills from plugin "${entry.plugin}" (load with skill_view): ${siblings.join(', ')}.`
        : `Plugin "${entry.plugin}" offers no other skills.`;
      text = `${text}\n\n${note}`;
    }
    const warnings = findInjectionPhrases(file.body).map(
      (phrase) => `Skill "${entry.name}" (${file.path}) contains text that looks like a prompt injection: "${phrase}"`,
    );
    for (const warning of warnings) this.onWarning?.(warning);
    return { name: entry.name, path: file.path, text, warnings };
  }

  /** The block for the system prompt: user skills only, or '' when there are none. */
  indexForSystemPrompt(): string {
    const skills = [...this.user.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    if (skills.length === 0) return '';
    const lines = skills.map((s) => (s.description ? `- ${s.name}: ${s.description}` : `- ${s.name}`));
    return [
      'Skills (instructions for specific tasks). When a task matches one, load it first with skill_view(name); skills_list shows all, plugin skills included:',
      ...lines,
    ].join('\n');
  }
}

/** A plugin may register the folder of a skill instead of its `SKILL.md`. */
function resolveSkillPath(p: string): string {
  try {
    if (fs.statSync(p).isDirectory()) return path.join(p, SKILL_FILE);
  } catch {
    // missing: readSkillFile reports it, naming the file
  }
  return p;
}
