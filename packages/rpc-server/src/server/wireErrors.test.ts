import fs from 'node:fs';
import path from 'node:path';
import {
  CommandBusyError,
  CommandFailedError,
  CommandRegistrationError,
  ConfigWriteError,
  ContextCompressionError,
  ErrorCode,
  HermesError,
  ModelUnavailableError,
  ProviderError,
  SessionBusyError,
  SessionNotFoundError,
  SkillFileError,
  StoreError,
  UnknownCommandError,
  UnknownSkillError,
  UsageError,
  createFileLogger,
  explainStoreFailure,
  rememberSecrets,
} from '@hermes/agent-core';
import { ManifestError } from '@hermes/plugin-host';
import { ResponseError } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { FrameError } from '../transport/frameError.ts';
import { toWireError } from './wireErrors.ts';

/** A real file logger in a temp folder, and a way to read what it wrote. */
function fileLogger() {
  const dir = tempDir('hermes-wire-errors-');
  const file = path.join(dir, 'rpc.log');
  return { logger: createFileLogger(file), log: () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '') };
}

function sqliteError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('toWireError: every error class answers with its own code', () => {
  const dbFile = '/var/hermes-test/state.db';
  const table: [string, unknown, number][] = [
    ['SessionBusyError', new SessionBusyError(), ErrorCode.SessionBusy],
    ['CommandBusyError', new CommandBusyError('compress'), ErrorCode.SessionBusy],
    ['UnknownCommandError', new UnknownCommandError('nope', 'help'), ErrorCode.NotACommand],
    ['UnknownCommandError (empty)', new UnknownCommandError('', undefined), ErrorCode.UsageError],
    ['ModelUnavailableError', new ModelUnavailableError('Set model.provider in config.yaml.'), ErrorCode.AgentUnavailable],
    ['ProviderError', new ProviderError('the server answered 503', { kind: 'http', retryable: true, status: 503 }), ErrorCode.AgentUnavailable],
    ['ContextCompressionError', new ContextCompressionError('the summary came back empty'), ErrorCode.AgentUnavailable],
    ['StoreError (title taken)', new StoreError('Another session already has the title "x"; choose a different title.'), ErrorCode.UsageError],
    ['StoreError (disk full)', new StoreError('The disk is full.', 'disk_full', dbFile), ErrorCode.StorageError],
    ['raw SQLITE_IOERR, explained', sqliteError('SQLITE_IOERR_WRITE', 'disk I/O error'), ErrorCode.StorageError],
    ['ConfigWriteError (bad YAML)', new ConfigWriteError('config.yaml: not valid YAML'), ErrorCode.UsageError],
    ['ConfigWriteError (write failed)', new ConfigWriteError('config.yaml: permission denied', ErrorCode.StorageError), ErrorCode.StorageError],
    ['UsageError', new UsageError('The prompt is empty.'), ErrorCode.UsageError],
    ['SessionNotFoundError', new SessionNotFoundError('No session "x".'), ErrorCode.SessionNotFound],
    ['UnknownSkillError', new UnknownSkillError('nope', []), ErrorCode.UsageError],
    ['SkillFileError', new SkillFileError('/h/skills/x/SKILL.md', 'no front matter'), ErrorCode.UsageError],
    ['ManifestError', new ManifestError('plugin.yaml line 3: `name` must be a string'), ErrorCode.UsageError],
    ['CommandFailedError (storage cause)', new CommandFailedError('title', 'builtin', new StoreError('full', 'disk_full', dbFile)), ErrorCode.StorageError],
    ['CommandFailedError (bug)', new CommandFailedError('x', 'myplugin', new TypeError('x is undefined')), ErrorCode.InternalError],
    ['CommandRegistrationError', new CommandRegistrationError('/help is taken'), ErrorCode.InternalError],
    ['FrameError', new FrameError('Invalid request: bad id', ErrorCode.InvalidRequest, null), ErrorCode.InvalidRequest],
    ['ResponseError', new ResponseError(ErrorCode.InvalidParams, 'Invalid params', { field: 'x' }), ErrorCode.InvalidParams],
    ['a plain Error', new Error('boom'), ErrorCode.InternalError],
    ['a thrown string', 'boom', ErrorCode.InternalError],
  ];

  it.each(table)('%s', (_name, error, code) => {
    const { logger } = fileLogger();
    const answer = toWireError('some.method', error, { logger, explainStoreFailure: (e) => explainStoreFailure(dbFile, e) });
    expect(answer.code).toBe(code);
  });

  it('every hermes error class is a HermesError carrying the code it answers with', () => {
    const ours = table.filter(([, error]) => error instanceof Error && error.name.endsWith('Error') && error.name !== 'Error' && !(error instanceof ResponseError));
    expect(ours.length).toBeGreaterThan(15);
    for (const [name, error, code] of ours) {
      expect(error, name).toBeInstanceOf(HermesError);
      expect((error as HermesError).code, name).toBe(code);
    }
  });
});

describe('toWireError: messages and logging', () => {
  it('answers a HermesError with its own message and data, unprefixed and unlogged when it is the caller\'s', () => {
    const { logger, log } = fileLogger();
    const answer = toWireError('session.title', new StoreError('Another session already has the title "x"; choose a different title.'), { logger });
    expect(answer.message).toBe('Another session already has the title "x"; choose a different title.');
    expect(log()).toBe('');
  });

  it('answers a raw SQLite failure as a storage error naming state.db and the fix, and logs it', () => {
    const { logger, log } = fileLogger();
    const file = '/var/hermes-test/state.db';
    const answer = toWireError('session.list', sqliteError('SQLITE_FULL', 'database or disk is full'), { logger, explainStoreFailure: (e) => explainStoreFailure(file, e) });
    expect(answer.code).toBe(ErrorCode.StorageError);
    expect(answer.message).toContain(file);
    expect(answer.message).toMatch(/Fix: free some space/);
    expect(log()).toMatch(/session\.list failed \(StoreError, code 5007\): The disk holding/);
  });

  it('answers anything else as -32603 naming the method, and logs its stack', () => {
    const { logger, log } = fileLogger();
    const answer = toWireError('tools.list', new TypeError('cannot read x of undefined'), { logger });
    expect(answer.code).toBe(ErrorCode.InternalError);
    expect(answer.message).toBe('tools.list failed: cannot read x of undefined');
    expect(log()).toMatch(/tools\.list failed: TypeError: cannot read x of undefined\n\s+at /);
  });

  it('redacts secrets from every kind of answer and from the log', () => {
    const secret = 'wire-errors-test-secret-0b9f4c';
    rememberSecrets({}, { HERMES_WIRE_ERRORS_TEST: secret });
    const { logger, log } = fileLogger();
    const kinds = [
      new ResponseError(ErrorCode.InvalidParams, `bad ${secret}`, { echo: secret }),
      new HermesError(ErrorCode.UsageError, `bad ${secret}`, { data: { echo: secret } }),
      new StoreError(`disk ${secret}`, 'io'),
      new Error(`bug ${secret}`),
    ];
    for (const error of kinds) {
      const answer = toWireError('x.y', error, { logger });
      expect(JSON.stringify({ message: answer.message, data: answer.data })).not.toContain(secret);
      expect(answer.message).toContain('[REDACTED]');
    }
    expect(log()).not.toContain(secret);
  });
});

describe('error classes', () => {
  const root = path.resolve(import.meta.dirname, '../../../..');
  /** The base itself, and the command line's exit-code carrier (its `code` is an exit status, not a wire code). */
  const notWireErrors = new Set(['HermesError', 'CommandFailure']);

  it('every error class in packages/*/src extends HermesError (directly or through another one)', () => {
    const sources = ['agent-core', 'plugin-host', 'rpc-server', 'tui'].flatMap((pkg) =>
      (fs.readdirSync(path.join(root, 'packages', pkg, 'src'), { recursive: true }) as string[])
        .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith('testing'))
        .map((f) => path.join(root, 'packages', pkg, 'src', f)),
    );
    const plain = sources.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/class (\w+) extends (\w*Error)\b/g)]
        .filter(([, name, base]) => base === 'Error' && !notWireErrors.has(name!))
        .map(([, name]) => `${path.relative(root, file)}: ${name}`),
    );
    expect(plain).toEqual([]);
  });
});
