import type { FindingLevel } from '../layout/findingLines.ts';

/** The colour of a finding, and of the command lines that hold one: red for a hardline, yellow for dangerous. */
export const LEVEL_COLOR: Record<FindingLevel, 'red' | 'yellow'> = { hardline: 'red', dangerous: 'yellow' };
