import { BUILTIN_SOURCE, type CatalogEntry } from './commandTypes.ts';

/** Built-in categories in the order /help shows them; plugin commands follow, one group per plugin. */
export const BUILTIN_CATEGORIES = ['Session', 'Configuration', 'Tools & Skills', 'Info', 'Exit'] as const;
export type BuiltinCategory = (typeof BUILTIN_CATEGORIES)[number];

/**
 * The /help text, generated from the catalog. `filter` naming one command (or alias) shows its usage;
 * any other filter keeps the commands whose name, alias or description contains it.
 */
export function formatHelp(catalog: CatalogEntry[], filter = ''): string {
  const wanted = filter.trim().replace(/^\//, '').toLowerCase();
  if (wanted !== '') {
    const exact = catalog.find((c) => c.name === wanted || c.aliases.includes(wanted));
    if (exact) return formatUsage(exact);
  }
  const shown = wanted === '' ? catalog : catalog.filter((c) => matches(c, wanted));
  if (shown.length === 0) return `No command matches "${filter.trim()}". Type /help to see them all.`;

  const groups = new Map<string, CatalogEntry[]>();
  const groupOf = (c: CatalogEntry) => (c.source === BUILTIN_SOURCE ? c.category : `Plugin: ${c.source}`);
  const order = [
    ...BUILTIN_CATEGORIES,
    ...[...new Set(shown.filter((c) => c.source === BUILTIN_SOURCE).map((c) => c.category))].sort(),
    ...[...new Set(shown.filter((c) => c.source !== BUILTIN_SOURCE).map(groupOf))].sort(),
  ];
  for (const c of shown) {
    const key = groupOf(c);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const width = Math.max(...shown.map((c) => usageLine(c).length));
  const sections: string[] = [];
  for (const key of new Set(order)) {
    const rows = groups.get(key);
    if (!rows) continue;
    const lines = [...rows]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((c) => `  ${usageLine(c).padEnd(width)}  ${c.description}${aliasNote(c)}`);
    sections.push(`${key}\n${lines.join('\n')}`);
  }
  return sections.join('\n\n');
}

function formatUsage(c: CatalogEntry): string {
  const from = c.source === BUILTIN_SOURCE ? '' : ` (plugin ${c.source})`;
  return `${usageLine(c)}${from}\n  ${c.description}${aliasNote(c)}`;
}

function usageLine(c: CatalogEntry): string {
  return c.args_hint ? `/${c.name} ${c.args_hint}` : `/${c.name}`;
}

function aliasNote(c: CatalogEntry): string {
  return c.aliases.length ? ` (also ${c.aliases.map((a) => `/${a}`).join(', ')})` : '';
}

function matches(c: CatalogEntry, wanted: string): boolean {
  return (
    c.name.includes(wanted) || c.aliases.some((a) => a.includes(wanted)) || c.description.toLowerCase().includes(wanted)
  );
}
