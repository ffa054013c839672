import type { CommandRegistry } from '../commandRegistry.ts';
import type { CommandInput } from '../commandTypes.ts';
import { approvalsCommand } from './approvals.ts';
import { branchCommand } from './branch.ts';
import { clearCommand } from './clear.ts';
import { compressCommand } from './compress.ts';
import { configCommand } from './config.ts';
import { helpCommand } from './help.ts';
import { historyCommand } from './history.ts';
import { mcpCommand } from './mcp.ts';
import { modelCommand } from './model.ts';
import { newCommand } from './newSession.ts';
import { pluginsCommand } from './plugins.ts';
import { quitCommand } from './quit.ts';
import { reloadMcpCommand } from './reloadMcp.ts';
import { reloadPluginsCommand } from './reloadPlugins.ts';
import { resumeCommand } from './resume.ts';
import { retryCommand } from './retry.ts';
import { saveCommand } from './save.ts';
import { sessionsCommand } from './sessions.ts';
import { skillsCommand } from './skills.ts';
import { statusCommand } from './status.ts';
import { stopCommand } from './stop.ts';
import { titleCommand } from './title.ts';
import { toolsCommand } from './tools.ts';
import { toolsetsCommand } from './toolsets.ts';
import { undoCommand } from './undo.ts';
import { usageCommand } from './usage.ts';
import { yoloCommand } from './yolo.ts';

/** Every built-in except /help, which needs the registry it describes. */
export const BUILTIN_COMMANDS: readonly CommandInput[] = [
  approvalsCommand,
  branchCommand,
  clearCommand,
  compressCommand,
  configCommand,
  historyCommand,
  mcpCommand,
  modelCommand,
  newCommand,
  pluginsCommand,
  quitCommand,
  reloadMcpCommand,
  reloadPluginsCommand,
  resumeCommand,
  retryCommand,
  saveCommand,
  sessionsCommand,
  skillsCommand,
  statusCommand,
  stopCommand,
  titleCommand,
  toolsCommand,
  toolsetsCommand,
  undoCommand,
  usageCommand,
  yoloCommand,
];

export function registerBuiltinCommands(registry: CommandRegistry): void {
  registry.register(helpCommand(() => registry.catalog()));
  for (const command of BUILTIN_COMMANDS) registry.register(command);
}
