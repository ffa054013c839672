/** Slash commands: one registry for built-ins and plugin commands, their dispatch, /help and completion. */
export { CommandRegistry } from './commandRegistry.ts';
export {
  UnknownCommandError,
  CommandBusyError,
  CommandRegistrationError,
  CommandFailedError,
} from './commandErrors.ts';
export {
  BUILTIN_SOURCE,
  type Awaitable,
  type CatalogEntry,
  type Command,
  type CommandHost,
  type CommandScope,
  type CommandHandler,
  type CommandInput,
} from './commandTypes.ts';
export { BUILTIN_COMMANDS, registerBuiltinCommands } from './builtin/index.ts';
export { mcpStatusText } from './builtin/mcp.ts';
export { formatHelp, BUILTIN_CATEGORIES } from './helpText.ts';
export {
  completeSlash,
  completePath,
  type CompletionItem,
  type CompletionResult,
  type PathCompletionOptions,
} from './completion.ts';
export { fuzzyScore, closestWord } from './fuzzyScore.ts';
