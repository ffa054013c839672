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

// Taken before any plugin loads: a plugin that replaces JSON's functions cannot change this copy.
const { parse, stringify } = JSON;

/**
 * What a plugin callback returned, copied into plain data the core can read safely, or a thrown
 * error when it cannot be read at all (a Proxy whose traps throw, getters that throw): the caller
 * treats that like the callback throwing. Functions in it are dropped, as JSON drops them.
 */
export function detach<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  try {
    return structuredClone(value);
  } catch {
    try {
      return parse(stringify(value)) as T;
    } catch (error) {
      throw new Error(`returned a value that cannot be read (${error instanceof Error ? error.message : 'unknown'})`);
    }
  }
}
