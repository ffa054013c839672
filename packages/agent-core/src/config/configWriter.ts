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
  else doc.setIn(keyPath, doc.createNode(value));
  save(file, doc, existing);
}

/** Parses config.yaml for editing; refuses (without touching it) a file that is not valid YAML. */
function openConfig(home: string): { file: string; doc: Document; existing: string | null } {
  const file = path.join(home, 'config.yaml');
  const existing = readIfPresent(file);
  // Typed as a plain Document so an empty file's contents can be replaced by a new mapping.
  const doc: Document = parseDocument(existing ?? '');
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
    writeAtomically(file, doc.toString(), existing === null ? 0o600 : fs.statSync(file).mode & 0o777);
  } catch (error) {
    throw new ConfigWriteError(`${describeWriteFailure(file, error)} The file was not changed.`, ErrorCode.StorageError);
  }
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
