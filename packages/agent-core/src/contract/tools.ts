import { array, boolean, number, strictObject, string, type output } from 'zod/mini';

/** A toolset and the tools of it that are enabled (`tools.list`). */
export const ToolsetDescriptorSchema = strictObject({
  name: string(),
  description: string(),
  enabled: boolean(),
  tools: array(string()),
});
export type ToolsetDescriptor = output<typeof ToolsetDescriptorSchema>;

/** What a command run outside the agent loop (`shell.exec`, `!cmd`) gave back. */
export const ShellExecResultSchema = strictObject({ stdout: string(), stderr: string(), code: number() });
export type ShellExecResult = output<typeof ShellExecResultSchema>;
