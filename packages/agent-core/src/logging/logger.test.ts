/** backend.log: an error carries its stack and cause; no line carries a secret. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rememberSecrets } from '../secrets/processSecrets.ts';
import { createFileLogger } from './logger.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

function logFile(): string {
  return path.join(tempDir('hermes-log-'), 'logs', 'backend.log');
}

describe('file logger', () => {
  it('writes an Error argument with its stack and its cause', () => {
    const file = logFile();
    const logger = createFileLogger(file);
    function failingHelper(): never {
      throw new Error('outer failure', { cause: new TypeError('inner cause') });
    }
    try {
      failingHelper();
    } catch (error) {
      logger.error('turn failed in session %s: %s', 's1', error);
    }
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toMatch(/ERROR \[\d+\] turn failed in session s1: Error: outer failure\n\s+at failingHelper/);
    expect(text).toMatch(/\[cause\]: TypeError: inner cause/);
  });

  it('redacts known secrets and key shapes from every line, arguments and stacks included', () => {
    rememberSecrets({}, { LOGGER_TEST_SECRET: 'logger-test-secret-value-99' });
    const file = logFile();
    const logger = createFileLogger(file);
    logger.warn('request failed: %s', new Error('401: header was Authorization: Bearer abcdefgh12345678'));
    logger.info('value logger-test-secret-value-99 and key sk-proj-0123456789abcdefghijklmn');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('logger-test-secret-value-99');
    expect(text).not.toContain('abcdefgh12345678');
    expect(text).not.toContain('0123456789abcdefghijklmn');
    expect(text).toContain('Authorization: [REDACTED]');
    expect(text).toContain('value [REDACTED] and key sk-[REDACTED]');
  });
});
