/**
 * Reading secrets without naming the file: `ps e` prints every process's environment (hermes's holds
 * its API keys), a debugger attached to a running process reads its memory, and an archive or copy of
 * a tree that holds `$HERMES_HOME` takes its `.env` along (to be read later, or encoded past the
 * redactor). Naming the file or `/proc/<pid>/environ` is judged with the other reads (`Judgement.read`).
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { register } from '../programRules.ts';
import { covers } from '../protectedPaths.ts';
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
