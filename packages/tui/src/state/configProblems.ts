/** How the TUI words config mistakes: a headline that says what is wrong, most serious kind first. */
import type { ConfigProblemInfo } from '@hermes/rpc-server/protocol';

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many.replace('N', String(n)));

/** One line saying what is wrong with the user's config, for the panel's title. */
export function configHeadline(problems: readonly ConfigProblemInfo[]): string {
  const count = (kind: ConfigProblemInfo['kind']) => problems.filter((p) => p.kind === kind).length;
  if (count('syntax')) return 'config.yaml has a syntax error: hermes ignores the whole file (default settings) until it is fixed';
  if (count('unreadable')) return `${filesOf(problems, 'unreadable')} cannot be used as it is: hermes goes on without it until it is fixed`;
  const values = count('value');
  if (values) {
    const files = filesOf(problems, 'value');
    if (files !== 'config.yaml') return plural(values, `${files}: a line hermes cannot use, so hermes skips it`, `${files}: N lines hermes cannot use, so hermes skips them`);
    return plural(values, 'config.yaml has a setting hermes cannot use: its default applies', 'config.yaml has N settings hermes cannot use: their defaults apply');
  }
  const unknown = count('unknown_key');
  return plural(unknown, 'config.yaml has an unknown key: hermes ignores it', 'config.yaml has N unknown keys: hermes ignores them');
}

/** The names of the files the problems of `kind` are about (each text starts with the file's path). */
function filesOf(problems: readonly ConfigProblemInfo[], kind: ConfigProblemInfo['kind']): string {
  const names = new Set(
    problems.filter((p) => p.kind === kind).map((p) => /^(.*?)(?: line \d+)?: /.exec(p.text)?.[1]?.split('/').at(-1) ?? 'A config file'),
  );
  return [...names].join(' and ');
}
