/**
 * A stdio MCP server listing tools a careless server sends (the stdio test server's `--odd-tools`
 * mode): an inputSchema without `type`, one of type string, a huge schema, a huge description, a tool
 * without a name, next to a well-formed one. Built on the SDK's low-level Server, which sends the list
 * as it is (McpServer would build proper schemas).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = [
  { name: 'echo', description: 'A well-formed tool', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'notype', description: 'Its schema has no type', inputSchema: { properties: { n: { type: 'number' } } } },
  { name: 'stringtype', description: 'Its schema is not an object schema', inputSchema: { type: 'string' } },
  {
    name: 'hugeschema',
    description: 'A schema of 2000 properties',
    inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, { type: 'string', description: 'z'.repeat(100) }])) },
  },
  { name: 'longdesc', description: 'd'.repeat(200_000), inputSchema: { type: 'object' } },
  { description: 'A tool without a name', inputSchema: { type: 'object' } },
];

const server = new Server({ name: 'hermes-odd-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
// The list goes out as written: that is the point of this server.
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }) as never);
server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }));
await server.connect(new StdioServerTransport());
