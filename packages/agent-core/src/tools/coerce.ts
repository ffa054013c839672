/**
 * Models often send `"5"` for an integer, `"true"` for a boolean or `"a.ts"` for a list of paths.
 * Coercing to the schema before the handler runs saves a wasted round trip; values that cannot be
 * coerced are left as they are for the handler to reject with a message the model can act on.
 */

type Schema = Record<string, unknown>;

function types(schema: Schema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Coerces one value to `schema`; returns the value unchanged when no rule applies. */
export function coerceValue(value: unknown, schema: unknown): unknown {
  if (!isObject(schema)) return value;
  const wanted = types(schema);
  if (wanted.length === 0) return value;

  if (typeof value === 'string') {
    const text = value.trim();
    // A string is valid as it is wherever strings are allowed, even "null".
    if (wanted.includes('string')) return value;
    if (wanted.includes('null') && text === 'null') return null;
    if (wanted.includes('integer') || wanted.includes('number')) {
      const n = text === '' ? NaN : Number(text);
      if (Number.isFinite(n) && (wanted.includes('number') || Number.isInteger(n))) return n;
    }
    if (wanted.includes('boolean')) {
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === '1') return true;
      if (lower === 'false' || lower === '0') return false;
    }
    if (wanted.includes('array')) {
      const parsed = text.startsWith('[') ? parseJson(text) : undefined;
      if (Array.isArray(parsed)) return coerceValue(parsed, schema);
      // "a,b" is ambiguous (one path with a comma, or two items?): leave it for the handler.
      if (!text.startsWith('[') && !text.includes(',')) return coerceValue([value], schema);
    }
    if (wanted.includes('object') && text.startsWith('{')) {
      const parsed = parseJson(text);
      if (isObject(parsed)) return coerceValue(parsed, schema);
    }
    return value;
  }

  if (Array.isArray(value)) {
    if (!wanted.includes('array')) return value;
    return value.map((item) => coerceValue(item, schema.items));
  }

  if (isObject(value)) {
    if (wanted.includes('object')) return coerceObject(value, schema);
    if (wanted.includes('array')) return [coerceValue(value, schema.items)];
    return value;
  }

  if (typeof value === 'number' || typeof value === 'boolean') {
    const fits = typeof value === 'boolean' ? wanted.includes('boolean') : wanted.includes('number') || wanted.includes('integer');
    // A bare scalar where a list is wanted: a list of one.
    if (!fits && wanted.includes('array')) return [coerceValue(value, schema.items)];
    if (!fits && wanted.includes('string')) return String(value);
  }
  return value;
}

/** Coerces each known property of an arguments object; unknown properties pass through. */
export function coerceObject(value: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key in properties ? coerceValue(item, properties[key]) : item;
  }
  return out;
}
