import fs from 'node:fs';
import path from 'node:path';
import { ToolRegistry, type Logger } from '@hermes/agent-core';
import { tempDir as sharedTempDir } from '../../../../scripts/testing/tempDirs.ts';

/** A fresh temp folder, removed when the test (or file) that made it is done. */
export function tempDir(prefix = 'hermes-plugins-'): string {
  return sharedTempDir(prefix);
}

/** Writes `<root>/<name>/` with the given files (`plugin.yaml` included when given). */
export function writePlugin(root: string, name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** A user plugin whose `index.mjs` body is `register(ctx)`. */
export function userPlugin(home: string, name: string, registerBody: string, yaml = `name: ${name}\nversion: 1.0.0\n`): string {
  return writePlugin(path.join(home, 'plugins'), name, {
    'plugin.yaml': yaml,
    'index.mjs': `export async function register(ctx) {\n${registerBody}\n}\n`,
  });
}

export interface RecordingLogger extends Logger {
  lines: Array<{ level: string; message: string }>;
  warnings(): string[];
}

export function recordingLogger(): RecordingLogger {
  const lines: Array<{ level: string; message: string }> = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    warnings: () => lines.filter((l) => l.level === 'warn').map((l) => l.message),
  };
}

/** A registry with one "built-in" tool, `read_file`. */
export function builtinRegistry(): ToolRegistry {
  const tools = new ToolRegistry({ env: {} });
  tools.register({
    name: 'read_file',
    toolset: 'file',
    description: 'built-in read',
    parameters: { type: 'object', properties: {} },
    handler: () => 'builtin',
  });
  return tools;
}
