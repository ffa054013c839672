/** `plugins.enabled` / `plugins.disabled` of config.yaml: why a plugin must not load, or null. */
export function gateVerdict(name: string, pluginsConfig: Record<string, unknown> | undefined): string | null {
  const list = (key: string): string[] | null => {
    const value = pluginsConfig?.[key];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
  };
  if (list('disabled')?.includes(name)) return 'disabled in config (plugins.disabled)';
  const enabled = list('enabled');
  if (enabled && !enabled.includes(name)) return 'not listed in plugins.enabled';
  return null;
}
