import { PluginHost } from '../pluginHost.ts';
import { builtinRegistry, recordingLogger, tempDir, userPlugin } from '../testing/pluginFixtures.ts';

/** A host with one user plugin per entry (name → body of `register(ctx)`), loaded, hook timeout 50 ms by default. */
export async function loadedHost(plugins: Record<string, string>, hookTimeoutS = 0.05) {
  const home = tempDir();
  for (const [name, body] of Object.entries(plugins)) userPlugin(home, name, body);
  const logger = recordingLogger();
  const tools = builtinRegistry();
  const h = new PluginHost({ home, cwd: tempDir(), env: {}, tools, logger, config: { plugins: { hook_callback_timeout: hookTimeoutS } } });
  const infos = await h.load();
  const failed = infos.filter((i) => !i.enabled);
  if (failed.length > 0) throw new Error(`fixture plugins failed: ${JSON.stringify(failed)}`);
  return { h, logger, tools };
}

/** agent-core's rule for `pre_tool_call` results: the first `{action: "block", message}` with a message. */
export function firstBlockOf(results: unknown[]): string | null {
  for (const r of results) {
    const { action, message } = (r ?? {}) as { action?: unknown; message?: unknown };
    if (action === 'block' && typeof message === 'string' && message.trim()) return message;
  }
  return null;
}
