/**
 * Turning protections off: another agent started with its approvals disabled (a way around this
 * gate), SELinux/AppArmor/audit switched off, and file capabilities that grant root. (Timers that
 * run a command later are in codeRunners.ts, `at`/`batch`, and wrappers.ts, `systemd-run --on-calendar`.)
 */
import type { Invocation } from '../judgement.ts';
import { register } from '../programRules.ts';
import { display, literal } from '../words.ts';

const texts = (inv: Invocation) => inv.args.map((w) => literal(w) ?? display(w));

/** Agents and the flags that make them run commands without asking anyone. */
const UNGUARDED: Record<string, RegExp> = {
  hermes: /^--yolo$/,
  claude: /^--dangerously-skip-permissions$|^--permission-mode(?:=|$)/,
  codex: /^--dangerously-bypass-approvals-and-sandbox$|^--full-auto$|^(?:-s|--sandbox)(?:=danger-full-access)?$|^--yolo$/,
  gemini: /^(?:-y|--yolo)$|^--approval-mode(?:=yolo)?$/,
  aider: /^--yes(?:-always)?$/,
  opencode: /^--dangerously-skip-permissions$/,
  'cursor-agent': /^(?:-f|--force)$/,
  goose: /^--no-confirm$/,
};

register(Object.keys(UNGUARDED), (inv, j) => {
  const flag = texts(inv).find((t) => UNGUARDED[inv.name]!.test(t));
  if (flag) j.add('dangerous', 'agent.unguarded', 'agent', `${inv.name} ${flag} runs another agent that executes commands without asking`);
});

register(['setenforce', 'aa-disable', 'aa-complain', 'aa-teardown', 'auditctl', 'setcap', 'csrutil', 'spctl'], (inv, j) => {
  const a = texts(inv);
  const off =
    (inv.name === 'setenforce' && /^(?:0|permissive)$/i.test(a[0] ?? '')) ||
    ['aa-disable', 'aa-complain', 'aa-teardown'].includes(inv.name) ||
    (inv.name === 'auditctl' && a.some((x, k) => x === '-D' || (x === '-e' && a[k + 1] === '0'))) ||
    (inv.name === 'setcap' && a.some((x) => /cap_(?:setuid|setgid|sys_admin|dac_override|sys_ptrace|sys_module)|=ep|\+ep/i.test(x))) ||
    (inv.name === 'csrutil' && a[0] === 'disable') ||
    (inv.name === 'spctl' && a.some((x) => /^--master-disable$|^--global-disable$/.test(x)));
  if (off) j.add('dangerous', 'security.disable', 'system', `${inv.name} ${a.join(' ')} turns a system protection off or grants root powers`);
});
