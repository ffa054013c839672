/**
 * Programs whose target directory or output file is an option or a later operand: symlink farms
 * and dotfile managers (`stow`, `chezmoi apply`), installs into a named directory (`pip --target`,
 * `npm --prefix`), `dasel put -f`, and python's file modules (`-m json.tool IN OUT`, `-m zipfile -e`).
 * Each target is checked as a tree write, so a home or a protected directory decides.
 */
import path from 'node:path';
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValue, optValues, parseOptions } from '../options.ts';
import { register } from '../programRules.ts';
import { lit, literal, type WordValue } from '../words.ts';
import { treeWrite } from './deletion.ts';
import { pythonProgram } from './infra.ts';

const given = (v: string | undefined): v is string => v !== undefined && v !== '' && v !== '\u0000';

/** stow links each package into `-t DIR`, by default the parent of the stow directory (`-d`, else the cwd). */
register(['stow'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'nvSDRpt:d:', long: ['target=', 'dir=', 'ignore=', 'defer=', 'override=', 'no', 'simulate', 'verbose', 'stow', 'delete', 'restow', 'adopt', 'no-folding', 'dotfiles', 'help', 'version'] });
  if (hasOpt(p, 'n', 'no', 'simulate', 'help', 'version')) return;
  const dir = optValue(p, 'd', 'dir');
  const stowDir = given(dir) ? path.posix.resolve(inv.cwd ?? '/', dir) : inv.cwd;
  const target = optValue(p, 't', 'target') ?? (stowDir ? path.posix.dirname(stowDir) : undefined);
  if (given(target)) treeWrite(lit(target), inv, j, 'stow links packages into');
});

/** chezmoi writes the managed dotfiles into the destination (`-D`, by default the home directory). */
register(['chezmoi'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'nvD:S:c:', long: ['destination=', 'source=', 'config=', 'dry-run', 'apply', 'force', 'verbose', 'help'] });
  const [verb] = p.operands.map((w) => literal(w) ?? '');
  if (hasOpt(p, 'n', 'dry-run', 'help')) return;
  if (verb === 'apply' || verb === 'update' || (verb === 'init' && hasOpt(p, 'apply'))) treeWrite(lit(optValue(p, 'D', 'destination') ?? j.ctx.home), inv, j, `chezmoi ${verb} writes dotfiles into`);
});

/** dasel `put`/`delete` rewrite the `-f` file in place, or write `-o FILE`. */
register(['dasel'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'mf:o:r:w:t:v:s:p:', long: ['file=', 'out=', 'read=', 'write=', 'type=', 'value=', 'selector=', 'parser=', 'multiple', 'pretty', 'compact', 'plain', 'null', 'colour', 'color', 'escape-html', 'help'] });
  const verb = literal(p.operands[0] ?? lit('')) ?? '';
  const out = optValue(p, 'o', 'out');
  if (given(out) && out !== '-') j.write(lit(out), inv, 'dasel writes');
  else if (/^(?:put|delete)$/.test(verb)) for (const f of optValues(p, 'f', 'file')) if (given(f) && f !== '-') j.write(lit(f), inv, `dasel ${verb} rewrites`);
});

/** `python -m json.tool IN OUT` writes OUT; `-m zipfile -e` and `-m tarfile -e` extract into a directory. */
register(/^python[\d.]*$/, (inv, j) => {
  const { module, args } = pythonProgram(inv);
  if (module === 'json.tool') {
    const out = parseOptions(args, { long: ['indent=', 'sort-keys', 'tab', 'no-indent', 'compact', 'json-lines', 'no-ensure-ascii'] }).operands[1];
    if (out && literal(out) !== '-') j.write(out, inv, 'python -m json.tool writes');
  } else if (module === 'zipfile' || module === 'tarfile') {
    const at = args.findIndex((w) => /^(?:-e|--extract)$/.test(literal(w) ?? ''));
    const dir = at >= 0 ? args[at + 2] : undefined;
    if (dir) treeWrite(dir, inv, j, `python -m ${module} extracts into`);
  }
});

/** Installs into a named directory: `pip install --target DIR` (`--prefix`, `--root`), `npm install --prefix DIR`. */
function installInto(dirs: string[], inv: Invocation, j: Judgement): void {
  for (const d of dirs) if (given(d)) treeWrite(lit(d), inv, j, `${inv.name} installs into`);
}

const PIP = { short: 't:r:c:e:i:f:UqvI', long: ['target=', 'prefix=', 'root=', 'src=', 'requirement=', 'constraint=', 'editable=', 'index-url=', 'extra-index-url=', 'find-links=', 'platform=', 'python-version=', 'implementation=', 'abi=', 'progress-bar=', 'cache-dir=', 'log=', 'proxy=', 'timeout=', 'retries=', 'trusted-host=', 'cert=', 'report=', 'upgrade-strategy=', 'config-settings=', 'global-option=', 'only-binary=', 'no-binary=', 'dry-run'] };

function pip(args: WordValue[], inv: Invocation, j: Judgement): void {
  const p = parseOptions(args, PIP);
  const verb = literal(p.operands[0] ?? lit('')) ?? '';
  if ((verb === 'install' || verb === 'download' || verb === 'wheel') && !hasOpt(p, 'dry-run')) installInto(optValues(p, 't', 'target', 'prefix', 'root', 'src'), inv, j);
}
register(/^pip[\d.]*$/, (inv, j) => pip(inv.args, inv, j));
register(/^python[\d.]*$/, (inv, j) => {
  const program = pythonProgram(inv);
  if (program.module === 'pip') pip(program.args, inv, j);
});
register(['uv'], (inv, j) => literal(inv.args[0] ?? lit('')) === 'pip' && pip(inv.args.slice(1), inv, j));

const INSTALL_VERBS = /^(?:install|i|in|ins|inst|isntall|add|ci|clean-install|update|up|upgrade|link|ln)$/;

register(['npm', 'pnpm', 'yarn', 'bun'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'C:', long: ['prefix=', 'dir=', 'cwd=', 'global-dir=', 'modules-folder=', 'registry=', 'workspace=', 'filter=', 'omit=', 'include=', 'tag=', 'save-prefix='] });
  const verb = literal(p.operands[0] ?? lit('')) ?? '';
  if (INSTALL_VERBS.test(verb) || (inv.name === 'yarn' && !p.operands.length)) installInto(optValues(p, 'prefix', 'dir', 'C', 'cwd', 'global-dir', 'modules-folder'), inv, j);
});
