/**
 * Services: stopping or disabling system services, and making a program start at every boot or
 * login (`systemctl enable`, `launchctl load`, `update-rc.d … defaults`, `rc-update add`,
 * `loginctl enable-linger`) — the persistence an attacker wants.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { display, literal, type WordValue } from '../words.ts';

const texts = (words: WordValue[]) => words.map((w) => literal(w) ?? display(w));

const STOP_VERBS = ['stop', 'disable', 'mask', 'kill', 'restart', 'unload', 'bootout', 'remove', 'del', 'delete', 'reload-or-restart', 'try-restart', 'force-reload', 'off', 'down', 'isolate', '--del'];

register(['systemctl', 'service', 'launchctl', 'invoke-rc.d', 'rc-service', 'update-rc.d', 'sv', 'rc-update', 'chkconfig'], (inv, j) => {
  const a = texts(inv.args).map((x) => x.toLowerCase());
  if (inv.name === 'systemctl' && a.includes('--user')) return;
  if (a.some((x) => STOP_VERBS.includes(x))) j.add('dangerous', 'service.stop', 'system service', `${inv.name} ${a.join(' ')} stops or disables a service`);
});

// ── starting at every boot or login ──

const SYSTEMCTL: OptionSpec = {
  short: 't:p:s:H:M:n:o:aliqfr',
  long: ['type=', 'property=', 'signal=', 'host=', 'machine=', 'lines=', 'output=', 'root=', 'image=', 'state=', 'job-mode=', 'kill-whom=', 'kill-value=', 'preset-mode=', 'what=', 'timestamp=', 'when=', 'drop-in=', 'message=', 'boot-loader-menu=', 'boot-loader-entry=', 'image-policy=', 'user', 'system', 'global', 'now', 'runtime', 'force', 'no-block', 'no-reload', 'no-ask-password', 'quiet', 'full', 'all', 'recursive', 'reverse', 'stdin', 'help', 'version'],
};
/** systemctl verbs that add a unit to what starts on its own. */
const ENABLE = /^(?:enable|reenable|link|edit|add-wants|add-requires|preset|preset-all)$/;

function persist(inv: Invocation, j: Judgement, what: string): void {
  j.add('dangerous', 'service.persist', 'autostart', `${inv.name} ${texts(inv.args).join(' ')} ${what}`);
}

register(['systemctl'], (inv, j) => {
  const p = parseOptions(inv.args, SYSTEMCTL);
  if (p.opts.has('help') || p.opts.has('version')) return;
  const [verb = '', ...units] = texts(p.operands);
  if (!ENABLE.test(verb)) return;
  const file = units.find((u) => u.includes('/'));
  persist(inv, j, verb === 'edit' ? 'changes what a service runs' : `makes ${file ? `the unit file ${file}` : units.join(' ') || 'units'} start at every boot or login`);
});

register(['launchctl'], (inv, j) => {
  const verb = texts(inv.args)[0] ?? '';
  if (/^(?:load|bootstrap|enable|submit)$/.test(verb)) persist(inv, j, 'registers a job launchd starts (at load, at login, or kept alive)');
});

register(['update-rc.d', 'rc-update', 'chkconfig'], (inv, j) => {
  const a = texts(inv.args).map((x) => x.toLowerCase());
  const enables = inv.name === 'update-rc.d' ? a.some((x) => ['defaults', 'enable', 'start', 'defaults-disabled'].includes(x)) : inv.name === 'rc-update' ? a[0] === 'add' : a.includes('--add') || a.includes('on');
  if (enables) persist(inv, j, 'makes a service start at every boot');
});

register(['loginctl'], (inv, j) => {
  if (texts(inv.args).includes('enable-linger')) persist(inv, j, "starts the user's services at boot, without a login");
});
