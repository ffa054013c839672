import { describe, expect, it } from 'vitest';
import { CAUGHT, SAFE } from './corpus.ts';
import { detectCommand, detectWrite } from './detect.ts';
import { normalizeCommand } from './normalize.ts';
import { PATH_KEYS } from './pathRules.ts';
import { KEYS } from './patterns.ts';

const ctx = { home: '/home/alice', hermesHome: '/home/alice/.hermes' };

describe('detection corpus', () => {
  it('catches every listed command at its level and key, and flags none of the ordinary ones', () => {
    const misses = CAUGHT.map((c) => ({ ...c, got: detectCommand(c.command, ctx) })).filter(
      (c) => c.got.level === 'safe' || c.got.level !== c.level || c.got.key !== c.key,
    );
    const falsePositives = SAFE.map((command) => ({ command, got: detectCommand(command, ctx) })).filter((c) => c.got.level !== 'safe');
    process.stdout.write(`approval corpus: ${CAUGHT.length} caught, ${SAFE.length} safe\n`);
    expect(CAUGHT.length).toBeGreaterThanOrEqual(80);
    expect(SAFE.length).toBeGreaterThanOrEqual(40);
    expect(misses).toEqual([]);
    expect(falsePositives).toEqual([]);
  });
});

describe('detectCommand', () => {
  it('keys a finding by its description, never by the command word', () => {
    const found = detectCommand('git push --force', ctx);
    expect(found).toEqual({ level: 'dangerous', key: KEYS.gitForcePush, description: KEYS.gitForcePush });
  });

  it('reports the most severe finding among chained commands', () => {
    expect(detectCommand('git push -f; rm -rf /', ctx)).toMatchObject({ level: 'hardline', key: KEYS.deleteSystem });
  });

  it('resolves relative writes against the working directory when given', () => {
    expect(detectCommand('echo x > hosts', { ...ctx, cwd: '/etc' })).toMatchObject({ key: PATH_KEYS.etc });
    expect(detectCommand('echo x > hosts', ctx)).toEqual({ level: 'safe' });
  });
});

describe('detectWrite', () => {
  it.each([
    ['/etc/hosts', 'dangerous', PATH_KEYS.etc],
    ['/home/alice/.ssh/authorized_keys', 'dangerous', PATH_KEYS.ssh],
    ['/home/alice/.bashrc', 'dangerous', PATH_KEYS.shellRc],
    ['/home/alice/project/.env', 'dangerous', PATH_KEYS.dotenv],
    ['/home/alice/project/.env.production', 'dangerous', PATH_KEYS.dotenv],
    ['/home/alice/.hermes/config.yaml', 'dangerous', PATH_KEYS.hermesConfig],
    ['/home/alice/.aws/credentials', 'dangerous', PATH_KEYS.credentials],
    ['/boot/grub/grub.cfg', 'hardline', PATH_KEYS.kernelFs],
    ['/sys/class/leds/x/brightness', 'hardline', PATH_KEYS.kernelFs],
    ['/dev/sda', 'hardline', PATH_KEYS.blockDevice],
    ['/dev/ttyUSB0', 'dangerous', PATH_KEYS.device],
  ])('%s is %s', (file, level, key) => {
    expect(detectWrite(file, ctx)).toEqual({ level, key, description: key });
  });

  it.each(['/home/alice/project/src/index.ts', '/home/alice/project/.env.example', '/tmp/out.txt', '/dev/null', '/home/alice/.hermes/notes.md'])(
    '%s is safe',
    (file) => expect(detectWrite(file, ctx)).toEqual({ level: 'safe' }),
  );

  it('sees through `..` and doubled slashes', () => {
    expect(detectWrite('/home/alice/project/../../../etc//passwd', ctx)).toMatchObject({ key: PATH_KEYS.etc });
  });
});

describe('normalizeCommand', () => {
  it('strips ANSI, NUL and zero-width characters, folds fullwidth forms and joins continuations', () => {
    expect(normalizeCommand('\x1b[1mｇｉｔ\x1b[0m pu\0sh \\\n  --force\u200b')).toBe('git push --force');
  });

  it('expands $IFS, brace lists and ANSI-C quoting', () => {
    expect(normalizeCommand('rm${IFS}-rf$IFS$9/')).toBe('rm -rf /');
    expect(normalizeCommand('{rm,-rf,x}')).toBe('rm -rf x');
    expect(normalizeCommand("$'\\x72m' -f")).toBe("'rm' -f");
  });

  it('survives malformed ANSI-C escapes (found by fuzzing)', () => {
    expect(() => normalizeCommand("$'\\x' $'\\U7fffffff'")).not.toThrow();
  });

  it('collapses horizontal whitespace but keeps newlines, and lowercases on request', () => {
    expect(normalizeCommand('  DROP\t\tTABLE   x \n  ls ', { lowercase: true })).toBe('drop table x\nls');
  });
});
