/**
 * Test fixture (run as its own process by mcpProcesses.test.ts): owns an McpManager with the stdio
 * test server (which starts a grandchild), prints the server's pids as one JSON line once connected,
 * then idles until it is killed.
 */
import { ToolRegistry } from '../tools/registry.ts';
import { testContext } from '../tools/toolTestContext.ts';
import { McpManager } from './mcpManager.ts';
import { memoryLogger, stdioServerConfig } from './testServerConfigs.ts';

const registry = new ToolRegistry();
const manager = new McpManager({ servers: [stdioServerConfig('owned', '--spawn-grandchild')], discoveryTimeoutS: 60, registry, env: {}, logger: memoryLogger() });
manager.start();
await manager.whenDiscovered();
// No temp dirs: this process is SIGKILLed, so nothing it made would be removed.
const outcome = await registry.run('mcp_owned_pids', '{}', testContext({ cwd: process.cwd(), home: process.cwd() }));
process.stdout.write(`${outcome.result}\n`);
setInterval(() => {}, 60_000);
