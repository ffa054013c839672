/** The rule table: which rules judge which program names. Rule modules register themselves here. */
import type { ProgramRule } from './judgement.ts';

const byName = new Map<string, ProgramRule[]>();
const byPattern: { pattern: RegExp; rule: ProgramRule }[] = [];

export function register(names: readonly string[] | RegExp, rule: ProgramRule): void {
  if (names instanceof RegExp) byPattern.push({ pattern: names, rule });
  else for (const name of names) byName.set(name, [...(byName.get(name) ?? []), rule]);
}

export function rulesFor(name: string): ProgramRule[] {
  return [...(byName.get(name) ?? []), ...byPattern.filter((p) => p.pattern.test(name)).map((p) => p.rule)];
}

export function isKnownProgram(name: string): boolean {
  return byName.has(name) || byPattern.some((p) => p.pattern.test(name));
}

/** Every program name with a rule of its own (for command names given as globs: `/bin/r?`). */
export function programNames(): string[] {
  return [...byName.keys()];
}
