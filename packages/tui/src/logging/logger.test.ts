import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, hermesHome } from './logger.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

describe('logger', () => {
  it('writes to $HERMES_HOME/logs/tui.log, creating the folder', () => {
    const home = tempDir('hermes-log-');
    const logger = createLogger({ file: join(hermesHome({ HERMES_HOME: home }), 'logs', 'tui.log'), level: 'info' });
    logger.info('backend ready', { pid: 42 });
    logger.debug('too chatty to keep');
    logger.error('startup failed', { error: new Error('boom') });
    const text = readFileSync(join(home, 'logs', 'tui.log'), 'utf8');
    expect(text).toMatch(/INFO .*backend ready {"pid":42}/);
    expect(text).not.toContain('too chatty');
    expect(text).toMatch(/ERROR .*startup failed .*"message":"boom"/);
  });

  it('defaults HERMES_HOME to ~/.hermes', () => {
    expect(hermesHome({})).toMatch(/\.hermes$/);
  });

  it('resolves a relative HERMES_HOME as the backend does, so log paths the TUI prints are absolute', () => {
    expect(hermesHome({ HERMES_HOME: ' homes/h1 ' })).toBe(join(process.cwd(), 'homes', 'h1'));
  });
});
