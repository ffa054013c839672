// A context plugin: a `pre_llm_call` hook that adds a line of context to every model call.
//
// What the hook returns (a string, or `{ context }`) is appended to the current *user* message for
// this one call. It never touches the system prompt (so the prompt cache stays warm) and is never
// saved in the session: the next call asks the hook again, so the note is always fresh.
import { execFileSync } from 'node:child_process';

function gitBranch(cwd) {
  try {
    return execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).trim();
  } catch {
    return null; // not a git checkout, or git is not installed
  }
}

export function register(ctx) {
  ctx.registerHook('pre_llm_call', () => {
    const branch = gitBranch(process.cwd());
    return { context: branch ? `Project note: the working tree is on git branch "${branch}".` : 'Project note: this folder is not a git checkout.' };
  });
}
