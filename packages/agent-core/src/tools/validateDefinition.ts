import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import type { ToolDefinition } from './types.ts';

/** Thrown at registration when a tool definition is malformed; names the tool and the problem (a plugin's bug: internal). */
export class ToolDefinitionError extends HermesError {
  override name = 'ToolDefinitionError';
  constructor(message: string) {
    super(ErrorCode.InternalError, message);
  }
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Checks what providers reject or models misread: the OpenAI name format and an object schema
 * whose `required` names exist. A bad plugin tool then fails at load, not mid-conversation.
 */
export function validateDefinition(tool: ToolDefinition): void {
  const fail = (problem: string): never => {
    throw new ToolDefinitionError(`Tool "${String(tool.name)}": ${problem}`);
  };
  if (typeof tool.name !== 'string' || !NAME.test(tool.name)) fail('the name must be 1-64 letters, digits, "_" or "-"');
  if (typeof tool.toolset !== 'string' || tool.toolset.trim() === '') fail('`toolset` must be a non-empty string');
  if (typeof tool.description !== 'string' || tool.description.trim() === '') fail('`description` must be a non-empty string');
  if (typeof tool.handler !== 'function') fail('`handler` must be a function');
  const params = tool.parameters;
  if (!isObject(params)) return fail('`parameters` must be a JSON Schema object');
  if (params.type !== 'object') fail(`\`parameters.type\` must be "object" (found ${JSON.stringify(params.type)})`);
  const properties = params.properties;
  if (!isObject(properties)) return fail('`parameters.properties` must be an object (use {} for no arguments)');
  for (const [key, schema] of Object.entries(properties)) {
    if (!isObject(schema)) fail(`the schema of argument "${key}" must be an object`);
  }
  if (params.required !== undefined) {
    if (!Array.isArray(params.required) || !params.required.every((r) => typeof r === 'string')) {
      fail('`parameters.required` must be a list of argument names');
    }
    const missing = (params.required as string[]).filter((r) => !(r in properties));
    if (missing.length > 0) fail(`\`parameters.required\` names ${missing.map((m) => `"${m}"`).join(', ')}, not in \`properties\``);
  }
  if (tool.requiresEnv !== undefined && (!Array.isArray(tool.requiresEnv) || !tool.requiresEnv.every((e) => typeof e === 'string'))) {
    fail('`requiresEnv` must be a list of environment variable names');
  }
}
