/** MCP servers as tools (docs/mcp.md). */
export { parseMcpServers, MCP_DEFAULTS, type McpServerConfig, type McpToolPolicy } from './mcpConfig.ts';
export { McpManager, testMcpServer, type McpManagerOptions } from './mcpManager.ts';
