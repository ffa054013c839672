export { startModelServer } from './server.ts';
export type { ModelServer, ModelServerOptions, RecordedRequest } from './server.ts';
export { ScriptError, loadScript, validateScript } from './script.ts';
export type { FinishReason, Script, ScriptedError, ScriptedToolCall, Turn, Usage } from './script.ts';
export { demoScript } from './demo.ts';
