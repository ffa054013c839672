/**
 * The protocol's runtime schemas (zod/mini), for the backend and for tests. Kept out of the protocol
 * index, which the TUI bundles: its startup must not pay for zod.
 */
export * from '@hermes/agent-core/contract';
export * from './eventSchemas.ts';
export * from './methodSchemas.ts';
export * from './paramFields.ts';
export * from './serverRequestSchemas.ts';
export * from './shapes.ts';
