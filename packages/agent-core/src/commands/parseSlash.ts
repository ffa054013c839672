/** The one slash parser lives in the contract (the TUI uses it too); kept here for existing imports. */
export { parseSlash, type ParsedSlash } from '../contract/slash.ts';
