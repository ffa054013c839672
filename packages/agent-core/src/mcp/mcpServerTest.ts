/** `hermes mcp test`: connect to one server, list the tools it would offer, disconnect. */
import { redactSecrets } from '../secrets/processSecrets.ts';
import type { McpServerConfig } from './mcpConfig.ts';
import type { McpConnection } from './mcpConnection.ts';
import { loadConnectionModule } from './connectionLoader.ts';
import { resolveServerSecrets } from './secretRefs.ts';
import { connectSpec, errorMessage, offeredTools } from './serverSpec.ts';

/** Connects to one server, lists its tools and disconnects (`hermes mcp test`). */
export async function testMcpServer(
  server: McpServerConfig,
  env: Record<string, string | undefined>,
  options: { timeoutMs?: number; childEnv?: Record<string, string> } = {},
): Promise<{ ok: boolean; tools: string[]; latency_ms: number; error?: string }> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let connection: McpConnection | null = null;
  // Non-fatal trouble (stdout noise) matters only if the test fails: then it is told with the failure.
  const notes: string[] = [];
  try {
    const secrets = resolveServerSecrets(server, env);
    const { McpConnection } = await loadConnectionModule();
    const timeoutMs = options.timeoutMs ?? server.connectTimeoutS * 1000;
    connection = await McpConnection.connect(connectSpec(server, secrets, options.childEnv, timeoutMs), {
      onToolsChanged: () => {},
      // A test reports what ended it; the connection is closed right after.
      onLost: () => {},
      onError: (message) => notes.push(message),
    });
    const tools = offeredTools(await connection.listTools(timeoutMs), server).tools.map((tool) => tool.name);
    return { ok: true, tools, latency_ms: latency() };
  } catch (error) {
    const also = notes.length > 0 ? ` (before that: ${notes.at(-1)})` : '';
    return { ok: false, tools: [], latency_ms: latency(), error: redactSecrets(`${errorMessage(error)}${also}`) };
  } finally {
    await connection?.close().catch(() => undefined);
  }
}
