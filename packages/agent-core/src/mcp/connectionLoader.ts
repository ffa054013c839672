/**
 * The MCP client (the SDK, ajv, the transports) loads on the first connect: the backend's start never
 * pays for it (the bundle splits at this import; tui/src/e2e/startupPath.e2e.test.ts).
 */
let loading: Promise<typeof import('./mcpConnection.ts')> | undefined;

export function loadConnectionModule(): Promise<typeof import('./mcpConnection.ts')> {
  loading ??= import('./mcpConnection.ts');
  return loading;
}
