/**
 * `NAME=value` in front of a command (or given to `env`/`sudo`): some variables are programs the
 * command will run (`GIT_SSH_COMMAND`, `PAGER`, `EDITOR`, …) or code every process loads
 * (`LD_PRELOAD`, `BASH_ENV`, …). Their values are judged like code the command runs.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { display, literal, type WordValue } from '../words.ts';

/** Variables whose value is a command line a program runs. */
const COMMAND_VARIABLES = /^(?:GIT_SSH_COMMAND|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_ASKPASS|GIT_PROXY_COMMAND|PAGER|MANPAGER|SYSTEMD_PAGER|EDITOR|VISUAL|SUDO_EDITOR|SUDO_ASKPASS|SSH_ASKPASS|LESSOPEN|LESSCLOSE|BROWSER|PROMPT_COMMAND|RSYNC_RSH|CVS_RSH|TAR_OPTIONS)$/;
/** Variables that make every process (or every shell, interpreter) load code. */
const LOADER_VARIABLES = /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_ENV|ENV|PERL5OPT|PERL5DB|RUBYOPT|PYTHONSTARTUP|PYTHONINSPECT|GIT_CONFIG_PARAMETERS|GIT_EXEC_PATH|GIT_TEMPLATE_DIR)$/;

export function judgeAssignment(name: string, value: WordValue, inv: Invocation, j: Judgement): void {
  const text = literal(value);
  if (COMMAND_VARIABLES.test(name)) {
    if (text === null) j.add('dangerous', 'code.environment', name, `${name}=${display(value)} is a command decided at run time`);
    else if (text.trim() && !/^(?:cat|less|more|true|vi|vim|nvim|nano|emacs|code(?: --wait)?|micro|hx|ssh|less -R)$/.test(text.trim())) {
      j.add('dangerous', 'code.environment', name, `${name} makes the command run \`${text}\``);
      j.code(text, inv, false);
    }
  } else if (LOADER_VARIABLES.test(name) && (text === null || text.trim() !== '')) {
    j.add('dangerous', 'code.environment', name, `${name}=${display(value)} makes programs load code`);
  } else if (name === 'NODE_OPTIONS' && /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)\b/.test(text ?? display(value))) {
    j.add('dangerous', 'code.environment', name, `NODE_OPTIONS=${display(value)} makes node load code`);
  } else if (/^GIT_CONFIG_VALUE_\d+$/.test(name) && text?.startsWith('!')) {
    j.add('dangerous', 'git.alias', 'git alias', `${name} defines a git alias that runs \`${text.slice(1)}\``);
    j.code(text.slice(1), inv);
  }
}
