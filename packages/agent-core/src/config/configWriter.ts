/**
 * Edits `$HERMES_HOME/config.yaml` in place through the `yaml` Document API, so the user's comments,
 * key order and other settings survive a change made by hermes (e.g. an "always allow" approval).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import { describeWriteFailure, makeDirs, shellPath } from './hermesHome.ts';

/** config.yaml was not changed: its content is the user's to fix (4004), or the disk refused the write (5007). */
export class ConfigWriteError extends HermesError {
  override name = 'ConfigWriteError';
  constructor(message: string, code: typeof ErrorCode.UsageError | typeof ErrorCode.StorageError = ErrorCode.UsageError) {
    super(code, message);
  }
}

/**
 * Appends `value` to the top-level list `key` (creating the list, and the file with mode 0600, if
 * missing). Returns false when the value was already there. The file is replaced atomically, and a
 * file that is not valid YAML is left untouched with an error saying where to fix it.
 */
export function appendToConfigList(home: string, key: string, value: string): boolean {
  const { file, doc, existing } = openConfig(home);
  const node = doc.get(key, true);
  if (node === undefined || (isScalar(node) && node.value === null)) {
    doc.set(key, doc.createNode([value]));
  } else if (isSeq(node)) {
    if (node.items.some((item) => (isScalar(item) ? item.value : item) === value)) return false;
    node.add(doc.createNode(value));
  } else {
    throw new ConfigWriteError(`${file}: \`${key}\` must be a list; the file was not changed.`);
  }
  save(file, doc, existing);
  return true;
}

/**
 * Sets a dotted key (e.g. `plugins.disabled`) to a value, creating the maps on the way; `undefined`
 * removes the key. Same guarantees as `appendToConfigList`.
 */
export function setConfigValue(home: string, dottedKey: string, value: unknown): void {
  const { file, doc, existing } = openConfig(home);
  const keyPath = dottedKey.split('.');
  if (value === undefined) doc.deleteIn(keyPath);
  else {
    // A section written with no value yet (`mcp_servers:` before its first entry) reads as null: it
    // becomes a mapping, as the user meant it, instead of refusing "Expected YAML collection".
    for (let depth = 1; depth < keyPath.length; depth++) {
      const section = doc.getIn(keyPath.slice(0, depth), true);
      if (isScalar(section) && (section.value === null || section.value === '')) doc.setIn(keyPath.slice(0, depth), doc.createNode({}));
    }
    doc.setIn(keyPath, doc.createNode(value));
  }
  save(file, doc, existing);
}

/** Parses config.yaml for editing; refuses (without touching it) a file that is not valid YAML. */
function openConfig(home: string): { file: string; doc: Document; existing: string | null } {
  const file = path.join(home, 'config.yaml');
  const existing = readIfPresent(file);
  // Typed as a plain Document so an empty file's contents can be replaced by a new mapping.
  // `merge`: Hermes reads config.yaml with PyYAML, which honours `<<: *defaults`; kept as written here.
  const doc: Document = parseDocument(existing ?? '', { merge: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const where = first.linePos?.[0] ? ` line ${first.linePos[0].line}` : '';
    throw new ConfigWriteError(`${file}${where}: not valid YAML (${first.message.split('\n')[0]}); fix it, then try again. The file was not changed.`);
  }
  // An empty file (or one holding only comments) gets a fresh top-level mapping.
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) throw new ConfigWriteError(`${file}: the top level must be a mapping of settings; the file was not changed.`);
  return { file, doc, existing };
}

function save(file: string, doc: Document, existing: string | null): void {
  try {
    writeAtomically(file, asWritten(doc, existing), existing === null ? 0o600 : fs.statSync(file).mode & 0o777);
  } catch (error) {
    throw new ConfigWriteError(`${describeWriteFailure(file, error)} The file was not changed.`, ErrorCode.StorageError);
  }
}

/**
 * The document in the file's own conventions, so a change touches only its lines: flow collections
 * as commonly written (`["x"]`, not the library's `[ "x" ]`), long strings never folded, the file's
 * line endings (CRLF stays CRLF) and its last line's newline (or lack of one).
 */
function asWritten(doc: Document, existing: string | null): string {
  let text = doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
  if (existing && !existing.endsWith('\n')) text = text.replace(/\n$/, '');
  return existing?.includes('\r\n') ? text.replace(/\r?\n/g, '\r\n') : text;
}

function readIfPresent(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    const why =
      code === 'EISDIR'
        ? `${file} is a folder, not a file. Fix: move it aside (mv ${shellPath(file)} ${shellPath(`${file}.folder`)}); hermes then writes a new one.`
        : `hermes cannot read ${file}: ${(error as Error).message}.`;
    throw new ConfigWriteError(`${why} The file was not changed.`, ErrorCode.StorageError);
  }
}

/** A reader (or a crash) sees the old file or the new one, never half of one. */
function writeAtomically(file: string, text: string, mode: number): void {
  makeDirs(path.dirname(file));
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(temp, text, { mode });
    fs.chmodSync(temp, mode);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
