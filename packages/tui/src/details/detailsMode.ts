/**
 * How much of the model's reasoning and of tool output the screen shows, per section (Hermes' `/details`):
 * `hidden` shows none, `collapsed` one line, `expanded` the text itself (capped). Pure: parses the
 * command's arguments; the view state holds the modes.
 */
export const DETAIL_SECTIONS = ['thinking', 'tools'] as const;
export const DETAIL_MODES = ['hidden', 'collapsed', 'expanded'] as const;
export type DetailSection = (typeof DETAIL_SECTIONS)[number];
export type DetailMode = (typeof DETAIL_MODES)[number];
export type DetailsModes = Record<DetailSection, DetailMode>;

export const DEFAULT_DETAILS: DetailsModes = { thinking: 'collapsed', tools: 'collapsed' };

/** Rows of reasoning or tool output shown when expanded; the rest is counted. */
export const EXPANDED_ROWS = 12;

const USAGE = 'usage: /details [thinking|tools] [hidden|collapsed|expanded]';

/**
 * `/details` arguments: a section and/or a mode. A mode alone sets both sections; a section alone (or
 * nothing) only asks what the modes are. Unknown words are an error naming what is accepted.
 */
export function parseDetailsArgs(args: string): { sections: DetailSection[]; mode?: DetailMode } | { error: string } {
  const words = args.trim().toLowerCase().split(/\s+/).filter(Boolean);
  let sections: DetailSection[] = [...DETAIL_SECTIONS];
  let mode: DetailMode | undefined;
  for (const word of words) {
    if ((DETAIL_SECTIONS as readonly string[]).includes(word)) sections = [word as DetailSection];
    else if ((DETAIL_MODES as readonly string[]).includes(word)) mode = word as DetailMode;
    else return { error: `/details: "${word}" is neither a section nor a mode — ${USAGE}` };
  }
  if (words.length > 2) return { error: `/details: too many arguments — ${USAGE}` };
  return mode ? { sections, mode } : { sections };
}

/** The modes in words, for the notice `/details` prints. */
export function describeDetails(modes: DetailsModes): string {
  return `details: ${DETAIL_SECTIONS.map((section) => `${section} ${modes[section]}`).join(' · ')}`;
}
