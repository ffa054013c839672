/** MCP servers as tools (docs/mcp.md). */
export { parseMcpServers, MCP_DEFAULTS, MCP_SERVER_NAME, type McpServerConfig, type McpToolPolicy } from './mcpConfig.ts';
export { McpManager, testMcpServer, type McpManagerOptions } from './mcpManager.ts';
export { withoutServerSecrets } from './secretRefs.ts';
