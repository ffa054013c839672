/** The one dotted-key lookup into config.yaml's contents (`config.get`, `/config`). */

/**
 * `approvals.mode` → raw.approvals.mode; undefined when any step is missing or not a mapping. An empty
 * key is the whole config. Only the mapping's own keys count: `constructor` or `__proto__` is not set.
 */
export function configValue(raw: Record<string, unknown>, key?: string): unknown {
  let value: unknown = raw;
  for (const part of key ? key.split('.') : []) {
    const mapping = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    value = mapping && Object.hasOwn(mapping, part) ? mapping[part] : undefined;
  }
  return value;
}

/** Sets a dotted key in a plain object, creating maps on the way; `undefined` deletes it. Mirrors configWriter's file edit in memory. */
export function setInConfig(raw: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = raw;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(node, part) ? node[part] : undefined;
    node = (next !== null && typeof next === 'object' && !Array.isArray(next) ? next : (node[part] = {})) as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
}
