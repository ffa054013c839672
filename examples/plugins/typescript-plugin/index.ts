// A TypeScript plugin: hermes compiles `index.ts` on load (no build step, no tsconfig needed).
//
// A plugin folder cannot import hermes' own packages, so it describes the part of the
// PluginContext it uses with a small local interface. Types are erased at load: they help you,
// they are not checked by hermes.

interface ToolSpec {
  name: string;
  toolset: string;
  schema: { name: string; description: string; parameters: Record<string, unknown> };
  handler: (args: Record<string, unknown>) => string | Promise<string>;
}

interface PluginContext {
  readonly name: string;
  registerTool(spec: ToolSpec): boolean;
  registerHook(name: string, callback: (payload: Record<string, unknown>) => unknown): void;
}

/** The fields of a post_tool_call payload this plugin reads. */
interface PostToolCall {
  tool_name: string;
  status: 'ok' | 'error' | 'blocked';
}

export function register(ctx: PluginContext): void {
  const counts = new Map<string, number>();

  ctx.registerTool({
    name: 'word_count',
    toolset: 'text',
    schema: {
      name: 'word_count',
      description: 'Counts the words in a text.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    handler: (args) => String(String(args.text).split(/\s+/).filter(Boolean).length),
  });

  // An observer: counts finished tool calls per tool (a real plugin might export metrics).
  ctx.registerHook('post_tool_call', (payload) => {
    const { tool_name } = payload as unknown as PostToolCall;
    counts.set(tool_name, (counts.get(tool_name) ?? 0) + 1);
  });
}
