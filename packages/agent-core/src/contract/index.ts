/**
 * The vocabulary agent-core shares with the wire, written once as zod/mini schemas with the types
 * derived from them (`@hermes/agent-core/contract`). A leaf: it imports nothing but zod/mini. The
 * rpc-server protocol re-exports it and adds what is the wire's own (methods, envelope, server
 * requests); its zod-free values are also reachable as `@hermes/agent-core/contract/values`.
 */
export * from './values.ts';
export * from './approvals.ts';
export * from './commands.ts';
export * from './events.ts';
export * from './sessionInfo.ts';
export * from './tools.ts';
export * from './transcript.ts';
export * from './usage.ts';
export * from './mcp.ts';
