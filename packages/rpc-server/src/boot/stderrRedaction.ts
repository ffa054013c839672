/**
 * stderr is shown to the user (the TUI's error panel shows its last lines, `hermes chat -q` passes it
 * on) and it also receives whatever JavaScript writes to stdout (the stdout guard diverts it there):
 * every write through `process.stderr` is redacted like the log. A child process that inherits fd 2
 * writes past this; tool processes never do (their output is piped and redacted).
 */
import { redactSecrets } from '@hermes/agent-core';

let installed = false;

export function redactStderr(): void {
  if (installed) return;
  installed = true;
  const stderr = process.stderr;
  const write = stderr.write.bind(stderr) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
  stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const encoding = typeof rest[0] === 'string' ? rest[0] : 'utf8';
    if (encoding !== 'utf8' && encoding !== 'utf-8') return write(chunk, ...rest);
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return write(redactSecrets(text), ...rest);
  }) as typeof stderr.write;
}
