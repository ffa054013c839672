/**
 * The contract's runtime values that import no zod: what a client bundle (the TUI, through the
 * protocol's index) may load without paying for the schemas. Everything else is in `./index.ts`.
 */
export { ErrorCode } from './errorCodes.ts';
export { HermesError, SessionNotFoundError, UsageError, type HermesErrorOptions } from './errors.ts';
export { APPROVAL_CHOICES, APPROVAL_LEVELS, APPROVAL_MODES } from './approvalNames.ts';
export { parseSlash, type ParsedSlash } from './slash.ts';
export { fuzzyScore, matchCommandWord } from './commandMatch.ts';
export { ParamLimit } from './limits.ts';
export { summarizeResult } from './toolSummary.ts';
