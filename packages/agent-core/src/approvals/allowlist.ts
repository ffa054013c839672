/**
 * What "allow for this session" and "always allow" remember: a rule and a target class
 * (`delete.recursive@working tree`), never a whole command and never a rule alone, so approving
 * `rm -rf build` does not cover `rm -rf ~/.ssh` or a write to `$HERMES_HOME`.
 *
 * `command_allowlist` entries written before this scheme (pattern descriptions such as
 * "recursive delete") keep working: each maps to the rules it used to cover, for ordinary targets
 * only (the working tree, temp, other paths, non-path targets), never for a protected one.
 */
import type { Finding } from './types.ts';

export const approvalKey = (finding: Pick<Finding, 'rule' | 'target'>) => `${finding.rule}@${finding.target}`;

/** Targets an entry without its own target (legacy, or a bare rule id) never covers. */
const PROTECTED_TARGETS = new Set([
  '/', 'home', 'system directory', '$HERMES_HOME', '.hermes/plugins', '~/.ssh', 'shell startup file', '~/.gitconfig', '.git/hooks',
  'autostart', 'cron', 'sudoers', '/etc', 'credentials', '.env file', 'kernel', 'kernel settings', 'raw disk', 'device', 'disk', 'machine', 'all processes', 'init',
]);

/** Legacy descriptions (the keys of hermes's first gate) and the rules (or exact `rule@target` keys) they covered. */
const LEGACY: Record<string, string[]> = {
  'recursive delete': ['delete.recursive', 'delete.find'],
  'force delete': ['delete.force'],
  'delete files listed by xargs': ['delete.computed'],
  'delete files with find': ['delete.find'],
  'make files world-writable': ['chmod.world-writable'],
  'recursive permission or ownership change': ['chmod.recursive', 'chown.recursive', 'chgrp.recursive'],
  'raw copy with dd': ['dd.write'],
  'SQL DROP (drops a database or table)': ['sql.drop'],
  'SQL TRUNCATE (empties a table)': ['sql.truncate'],
  'SQL DELETE without WHERE (deletes every row)': ['sql.delete-all', 'sql.update-all'],
  'wipe a Redis database': ['redis.flush'],
  'run downloaded code in a shell (curl | sh)': ['code.from-network'],
  'run decoded data in a shell (base64 -d | sh)': ['code.from-data'],
  'eval of a dynamic string': ['code.eval'],
  'interpreter one-liner that runs commands or deletes files': ['code.interpreter', 'delete.interpreter'],
  'cloud metadata endpoint access': ['network.metadata'],
  'git reset --hard (discards uncommitted work)': ['git.reset-hard'],
  'git force push': ['git.force-push'],
  'git clean -f (deletes untracked files)': ['git.clean'],
  'git branch -D (force-deletes a branch)': ['git.branch-delete'],
  'uninstall packages': ['package.remove'],
  'kill processes by name (pkill -9, killall)': ['kill.by-name'],
  'sudo reading a password from stdin': ['sudo.password-from-stdin'],
  'stop or disable a system service': ['service.stop'],
  // Its one target is protected, so the entry names it: the user allowed exactly this.
  'remove all cron jobs (crontab -r)': ['cron.replace@cron'],
};

/** Legacy path descriptions: they named a protected class, which they keep covering for writes. */
const LEGACY_PATHS: Record<string, string> = {
  'modify hermes config': '$HERMES_HOME',
  'modify files in /etc': '/etc',
  'modify ~/.ssh': '~/.ssh',
  'modify a shell startup file': 'shell startup file',
  'modify a credentials file': 'credentials',
  'modify a .env file': '.env file',
  'modify a system directory': 'system directory',
  'write to a device file': 'device',
};

/** An allowlist: exact `rule@target` keys, and rules allowed on ordinary targets. */
export class Allowlist {
  private readonly exact = new Set<string>();
  private readonly ordinary = new Set<string>();
  /** Entries that mean nothing to this gate, for a one-time warning. */
  readonly unknown: string[] = [];

  constructor(entries: readonly string[] = []) {
    for (const entry of entries) this.add(entry);
  }

  add(entry: string): void {
    const text = entry.trim();
    if (text.includes('@')) this.exact.add(text);
    else if (LEGACY[text]) for (const rule of LEGACY[text]) (rule.includes('@') ? this.exact : this.ordinary).add(rule);
    else if (LEGACY_PATHS[text]) this.exact.add(`write.protected@${LEGACY_PATHS[text]}`);
    else if (/^[a-z][\w-]*(?:\.[\w-]+)+$/.test(text)) this.ordinary.add(text);
    else this.unknown.push(text);
  }

  covers(finding: Finding): boolean {
    if (finding.level === 'hardline') return false;
    if (this.exact.has(approvalKey(finding))) return true;
    return this.ordinary.has(finding.rule) && !PROTECTED_TARGETS.has(finding.target);
  }
}
