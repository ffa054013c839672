function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A private deep copy for a plugin callback: what it does to its arguments must change nothing the
 * core keeps (the args that run, the history that is stored and sent). Values that cannot be cloned
 * (functions, class instances with private state) are copied field by field, and only the
 * uncloneable leaves themselves are shared.
 */
export function snapshot<T>(value: T, depth = 0): T {
  try {
    return structuredClone(value);
  } catch {
    if (depth > 8) return value;
    if (Array.isArray(value)) return value.map((item: unknown) => snapshot(item, depth + 1)) as T;
    if (isPlainObject(value)) {
      const copy: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) copy[key] = snapshot(field, depth + 1);
      return copy as T;
    }
    return value;
  }
}
