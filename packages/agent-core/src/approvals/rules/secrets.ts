/**
 * Reading secrets without naming the file: `ps e` prints every process's environment (hermes's holds
 * its API keys), a debugger attached to a running process reads its memory, and an archive or copy of
 * a tree that holds `$HERMES_HOME` takes its `.env` along (to be read later, or encoded past the
 * redactor). Naming the file or `/proc/<pid>/environ` is judged with the other reads (`Judgement.read`).
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { register } from '../programRules.ts';
import { covers, reaches } from '../protectedPaths.ts';
import { display, literal } from '../words.ts';

const texts = (inv: Invocation) => inv.args.map((w) => literal(w) ?? display(w));
const asks = (j: Judgement, why: string) => j.add('dangerous', 'read.secrets', 'process environment', `${why} (hermes's holds its API keys)`);

register(['ps'], (inv, j) => {
  // BSD-style options (no dash) with `e` show the environment: `ps e`, `ps auxe`, `ps eww`.
  const bsd = texts(inv).find((t) => /^[a-zA-Z]*e[a-zA-Z]*$/.test(t));
  if (bsd) asks(j, `ps ${bsd} prints every process's environment`);
});

register(['gdb', 'lldb', 'gcore', 'pstack', 'eu-stack'], (inv, j) => {
  const a = texts(inv);
  const attaches = a.some((t) => /^(?:-p|--pid|--attach-pid)(?:=|$)|^-p\d+$/.test(t)) || (inv.name !== 'gdb' && inv.name !== 'lldb' && a.length > 0);
  if (attaches) asks(j, `${inv.name} attaches to a running process and can read its memory and environment`);
});

/** Programs that copy or pack whole trees (`cp` only with `-r`/`-R`/`-a`). */
const TREE_COPIERS = ['tar', 'bsdtar', 'gtar', 'zip', '7z', '7za', '7zz', 'rsync', 'scp', 'cpio', 'ditto', 'rclone', 'restic', 'borg', 'cp'];

register(TREE_COPIERS, (inv, j) => {
  const a = texts(inv);
  if (inv.name === 'cp' && !a.some((t) => /^-\w*[rRa]|^--(?:recursive|archive)$/.test(t))) return;
  for (const word of inv.args) {
    const p = j.path(word, inv);
    if (p && covers(p, j.ctx.hermesHome)) {
      j.add('dangerous', 'read.secrets', '$HERMES_HOME/.env', `${inv.name} takes ${p.display}, which holds $HERMES_HOME/.env (hermes's API keys)`);
      return;
    }
  }
});

/** find's tests that select by name or path, and actions that hand the files found to a program. */
const NAME_TESTS = /^-(?:i?name|i?path|i?wholename|i?regex)$/;
const RUNS = /^-(?:exec|execdir|ok|okdir)$/;

/**
 * `find ~/.hermes -name .env -exec base64 {} +`, `find /proc -name environ | xargs cat`: a find that
 * can select the home `.env` (or a process's environment) and hands what it finds to a program,
 * by an action or through a pipe or command substitution, reads it.
 */
register(['find'], (inv, j) => {
  const a = texts(inv);
  const start = a.findIndex((t) => /^[-(!]/.test(t) && !/^-[HLP]$/.test(t));
  const roots = (start === -1 ? inv.args : inv.args.slice(0, start)).filter((w) => !/^-[HLPD]/.test(literal(w) ?? ''));
  const names = a.flatMap((t, k) => (NAME_TESTS.test(t) && a[k + 1] !== undefined ? [{ test: t, value: a[k + 1]! }] : []));
  const handsOn = a.some((t) => RUNS.test(t)) || hasConsumer(inv);
  if (!handsOn) return;
  const selects = (file: string) =>
    names.length === 0 ||
    names.some(({ test, value }) => {
      const subject = /path|wholename|regex/.test(test) ? file : file.split('/').pop()!;
      // A pattern that is not a valid expression here may still select it.
      try {
        const flags = test.startsWith('-i') ? 'i' : '';
        return /regex/.test(test) ? new RegExp(`^${value}$`, flags).test(subject) : globMatches(value, subject, flags);
      } catch {
        return true;
      }
    });
  const dotenv = `${j.ctx.hermesHome.replace(/\/+$/, '')}/.env`;
  for (const word of roots) {
    const p = j.path(word, inv);
    if (!p) continue;
    if (covers(p, j.ctx.hermesHome) && selects(dotenv)) {
      j.add('dangerous', 'read.secrets', '$HERMES_HOME/.env', `find ${p.display} hands $HERMES_HOME/.env (hermes's API keys) to another program`);
    }
    if ((covers(p, '/proc') || reaches(p, '/proc')) && selects('/proc/1/environ')) asks(j, `find ${p.display} hands processes' environments to another program`);
  }
});

/** A shell glob (find's `-name`) matches `subject`. */
function globMatches(glob: string, subject: string, flags: string): boolean {
  const re = glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.').replace(/\[!/g, '[^');
  return new RegExp(`^${re}$`, flags).test(subject);
}

/** Whether what the command prints is read by another: it feeds a pipe or a command substitution. */
function hasConsumer(inv: Invocation): boolean {
  for (let n = inv.fact.node.parent; n; n = n.parent) {
    if (n.type === 'command_substitution' || n.type === 'process_substitution') return true;
    if (n.type === 'pipeline') return true;
  }
  return false;
}
