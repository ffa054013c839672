/** A duration in config.yaml: a number of seconds, or a number with a unit (`500ms`, `90s`, `30m`, `2h`, `1d`). */
const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds, or null when `value` is not a duration of 0 or more. */
export function parseDuration(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] ?? 's']!;
}
