import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';

/** One parsed `SKILL.md`. */
export interface SkillFile {
  /** From the front matter's `name`, else the folder name (or the caller's fallback). */
  name: string;
  /** From the front matter's `description`, else the body's first line; may be ''. */
  description: string;
  /** The markdown after the front matter. */
  body: string;
  /** Absolute path of the `SKILL.md`. */
  path: string;
}

/** A `SKILL.md` that could not be used, and why (the message names the file). */
export interface SkillProblem {
  path: string;
  message: string;
}

/** A SKILL.md the user must fix (wire code 4004). */
export class SkillFileError extends HermesError {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(ErrorCode.UsageError, `${file}: ${reason}`);
    this.name = 'SkillFileError';
  }
}

export const SKILL_FILE = 'SKILL.md';

/** Directories never scanned for skills (as in Hermes' skill_utils). */
const EXCLUDED_DIRS = new Set(['.git', '.github', '.hub', '.archive', '.venv', 'venv', 'node_modules', '__pycache__']);
/** Support folders inside a skill; not scanned as skills of their own. */
const SUPPORT_DIRS = new Set(['references', 'templates', 'assets', 'scripts']);

const MAX_DESCRIPTION = 300;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION - 1)}…` : flat;
}

function firstLine(body: string): string {
  for (const line of body.split('\n')) {
    const text = line.replace(/^#+\s*/, '').trim();
    if (text) return text;
  }
  return '';
}

/** Checks a skill name: non-empty, one line, no `:` (reserved for `<plugin>:<skill>`). */
export function skillNameProblem(name: string): string | null {
  if (!name.trim()) return 'the skill name is empty';
  if (name !== name.trim() || /[\r\n]/.test(name)) return `the skill name "${name}" must be one line without surrounding spaces`;
  if (name.includes(':')) return `the skill name "${name}" must not contain ":"`;
  return null;
}

/**
 * Parses the text of a `SKILL.md`: optional YAML front matter between a leading `---` line and the
 * next `---` line (`name`, `description`), then the body. Throws a SkillFileError naming `file`.
 * `fallbackName` is used when the front matter has no `name` (discovery passes the folder name).
 */
export function parseSkillFile(text: string, file: string, fallbackName?: string): SkillFile {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let meta: Record<string, unknown> = {};
  let body = source;
  if (/^---[ \t]*\n/.test(source)) {
    const rest = source.slice(source.indexOf('\n') + 1);
    const end = /^---[ \t]*$/m.exec(rest);
    if (!end) throw new SkillFileError(file, 'the front matter starts with "---" but has no closing "---" line');
    const yamlText = rest.slice(0, end.index);
    body = rest.slice(end.index + end[0].length).replace(/^\n/, '');
    let parsed: unknown;
    try {
      parsed = parseYaml(yamlText);
    } catch (err) {
      const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new SkillFileError(file, `invalid YAML front matter: ${reason}`);
    }
    if (parsed !== null && parsed !== undefined) {
      if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new SkillFileError(file, 'the front matter must be a YAML mapping (key: value lines)');
      meta = parsed as Record<string, unknown>;
    }
  }
  for (const key of ['name', 'description'] as const) {
    const value = meta[key];
    if (value !== undefined && value !== null && typeof value !== 'string') throw new SkillFileError(file, `front matter "${key}" must be a string`);
  }
  const name = typeof meta.name === 'string' && meta.name.trim() ? meta.name.trim() : (fallbackName ?? '');
  if (!name) throw new SkillFileError(file, 'the front matter has no "name"');
  const nameProblem = skillNameProblem(name);
  if (nameProblem) throw new SkillFileError(file, nameProblem);
  const description = oneLine(typeof meta.description === 'string' && meta.description.trim() ? meta.description : firstLine(body));
  return { name, description, body: body.trim(), path: file };
}

/** Reads and parses one `SKILL.md`; errors (unreadable, malformed) are SkillFileErrors naming the file. */
export function readSkillFile(file: string, fallbackName?: string): SkillFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SkillFileError(file, code === 'ENOENT' ? 'the file does not exist' : `cannot be read (${code ?? String(err)})`);
  }
  return parseSkillFile(text, file, fallbackName);
}

/** The folder where user skills live. */
export function userSkillsDir(home: string): string {
  return path.join(home, 'skills');
}

/**
 * Finds the user skills: every `$HERMES_HOME/skills/**\/SKILL.md` (a folder per skill, nested
 * categories allowed). Bad files and duplicate names come back as problems; nothing throws.
 * Skills are sorted by name.
 */
export function discoverUserSkills(home: string): { skills: SkillFile[]; problems: SkillProblem[] } {
  const root = userSkillsDir(home);
  const found: SkillFile[] = [];
  const problems: SkillProblem[] = [];
  const seen = new Set<string>();

  const walk = (dir: string, insideSkill: boolean) => {
    let real: string;
    let entries: fs.Dirent[];
    try {
      real = fs.realpathSync(dir);
      if (seen.has(real)) return; // a symlink loop or a folder linked twice
      seen.add(real);
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      if (dir !== root || (err as NodeJS.ErrnoException).code !== 'ENOENT') {
        problems.push({ path: dir, message: `${dir}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` });
      }
      return;
    }
    const isSkill = entries.some((e) => e.name === SKILL_FILE && (e.isFile() || e.isSymbolicLink()));
    if (isSkill) {
      const file = path.join(dir, SKILL_FILE);
      try {
        found.push(readSkillFile(file, path.basename(dir)));
      } catch (err) {
        problems.push({ path: file, message: err instanceof Error ? err.message : String(err) });
      }
    }
    const subdirs = entries
      .filter((e) => !EXCLUDED_DIRS.has(e.name) && !((isSkill || insideSkill) && SUPPORT_DIRS.has(e.name)))
      .filter((e) => e.isDirectory() || (e.isSymbolicLink() && isDirectory(path.join(dir, e.name))))
      .map((e) => e.name)
      .sort();
    for (const name of subdirs) walk(path.join(dir, name), isSkill);
  };
  walk(root, false);

  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.path.localeCompare(b.path)));
  const skills: SkillFile[] = [];
  for (const skill of found) {
    const first = skills.find((s) => s.name === skill.name);
    if (first) problems.push({ path: skill.path, message: `${skill.path}: skill name "${skill.name}" is already used by ${first.path}; ignored` });
    else skills.push(skill);
  }
  return { skills, problems };
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
