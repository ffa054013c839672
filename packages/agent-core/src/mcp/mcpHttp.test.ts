/** URL servers: the HTTP test server as a real child process, over real HTTP. */
import { describe, expect, it } from 'vitest';
import { onCleanup } from '../../../../scripts/testing/tempDirs.ts';
import { startHttpTestServer } from '../../../../scripts/mcp-servers/launch.ts';
import { knownSecrets } from '../secrets/processSecrets.ts';
import { testContext } from '../tools/toolTestContext.ts';
import { testMcpServer } from './mcpManager.ts';
import { serverConfig, startedManager } from './testServerConfigs.ts';

async function httpServer(options: Parameters<typeof startHttpTestServer>[0] = {}) {
  const server = await startHttpTestServer(options);
  onCleanup(() => server.close());
  return server;
}

describe('MCP servers over HTTP', () => {
  it('Streamable HTTP with a header from ${VAR}: tools registered and called; the header value is a known secret', async () => {
    const token = 'tok-9f8e7d6c5b4a3210';
    const server = await httpServer({ env: { TEST_TOKEN: token } });
    const { manager, registry } = startedManager([serverConfig('web', { transport: 'http', url: server.url, headers: { 'x-test-token': '${WEB_TOKEN}' } })], { env: { WEB_TOKEN: token } });
    await manager.whenDiscovered();
    const status = manager.statuses()[0]!;
    expect(status).toMatchObject({ status: 'connected', transport: 'http', target: server.url, error: null });
    expect((await registry.run('mcp_web_echo', '{"text":"over http"}', testContext())).result).toBe('echo: over http');
    expect(knownSecrets()).toContain(token);
    expect(JSON.stringify(manager.statuses())).not.toContain(token);
  });

  it('a wrong header is refused by the server and reported as the failure, without the header value', async () => {
    const server = await httpServer({ env: { TEST_TOKEN: 'the-right-token-123' } });
    const { manager } = startedManager([serverConfig('web', { transport: 'http', url: server.url, headers: { 'x-test-token': 'a-wrong-token-456' } })]);
    await manager.whenDiscovered();
    const status = manager.statuses()[0]!;
    expect(status.status).toBe('failed');
    expect(status.error).toContain('refused the request (HTTP 401): Streamable HTTP error: Error POSTing to endpoint: missing or wrong x-test-token. Check the credentials in mcp_servers.web.headers');
    expect(status.error).not.toContain('a-wrong-token-456');
  });

  it('falls back to SSE for a server that only speaks SSE', async () => {
    const server = await httpServer({ mode: '--sse-only' });
    const { manager, registry } = startedManager([serverConfig('old', { transport: 'http', url: server.url })]);
    await manager.whenDiscovered();
    expect(manager.statuses()[0]).toMatchObject({ status: 'connected', transport: 'sse' });
    expect((await registry.run('mcp_old_echo', '{"text":"over sse"}', testContext())).result).toBe('echo: over sse');
  });

  it('a URL server that never answers initialize fails within connect_timeout', async () => {
    const server = await httpServer({ mode: '--never-initialize' });
    const { manager } = startedManager([serverConfig('mute', { transport: 'http', url: server.url, connectTimeoutS: 1 })]);
    await manager.whenDiscovered();
    expect(manager.statuses()[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('did not answer initialize within 1 s') });
  });

  it('testMcpServer connects, lists the tools (after include/exclude) and measures the latency', async () => {
    const server = await httpServer();
    const result = await testMcpServer(serverConfig('web', { transport: 'http', url: server.url, tools: { exclude: ['crash'], resources: true, prompts: true } }), {});
    expect(result.ok).toBe(true);
    expect(result.tools).toContain('echo');
    expect(result.tools).not.toContain('crash');
    expect(result.latency_ms).toBeGreaterThan(0);
    const down = await testMcpServer(serverConfig('gone', { transport: 'http', url: 'http://127.0.0.1:9/mcp' }), {}, { timeoutMs: 5_000 });
    expect(down).toMatchObject({ ok: false, tools: [], error: expect.stringContaining('127.0.0.1:9') });
  });
});
