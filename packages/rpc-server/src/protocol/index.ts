/**
 * The wire contract between the hermes TUI and its backend: names as constants, shapes as types.
 * PROTOCOL.md is the design; this module is its single source of truth in code. Secrets never
 * cross it: the backend redacts every string it sends (events, results, errors, server requests) to
 * `[REDACTED]` (docs/secrets.md), so a client never needs to.
 */
/** A line longer than this is dropped with a parse error. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

// The vocabulary shared with agent-core: its types, and the values that need no zod (this module is
// in the TUI's bundle, which must stay free of zod; schemas are reached through ./schemas.ts).
export type * from '@hermes/agent-core/contract';
export * from '@hermes/agent-core/contract/values';
export * from './errors.ts';
export * from './events.ts';
export * from './limits.ts';
export * from './methods.ts';
export * from './startup.ts';
export * from './versions.ts';
export type * from './shapes.ts';
