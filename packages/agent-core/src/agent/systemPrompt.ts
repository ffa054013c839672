import fs from 'node:fs';
import path from 'node:path';

/** Project instructions hermes reads from the working directory, first found wins. */
export const PROJECT_CONTEXT_FILES = ['HERMES.md', 'AGENTS.md'] as const;
/** Larger files are cut: the system prompt is paid for on every call. */
const MAX_PROJECT_CONTEXT_CHARS = 20_000;

/** The project's instructions file, or null when there is none (or it cannot be read). */
export function readProjectContext(cwd: string): { file: string; text: string } | null {
  for (const name of PROJECT_CONTEXT_FILES) {
    const file = path.join(cwd, name);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (!text.trim()) continue;
    if (text.length > MAX_PROJECT_CONTEXT_CHARS) {
      text = `${text.slice(0, MAX_PROJECT_CONTEXT_CHARS)}\n[… ${name} cut at ${MAX_PROJECT_CONTEXT_CHARS} characters]`;
    }
    return { file: name, text: text.trim() };
  }
  return null;
}

/**
 * Built once per session and kept byte-for-byte stable across its turns, so provider prompt caches
 * hit. Anything that changes per turn (hook context, notices) goes into user messages instead.
 */
export function buildSystemPrompt(input: { cwd: string; toolNames: string[]; now?: Date; skillsIndex?: string }): string {
  const date = (input.now ?? new Date()).toISOString().slice(0, 10);
  const parts = [
    "You are Hermes, an AI agent working in the user's terminal. Be direct and accurate.",
    'Use the tools to inspect the project instead of guessing; say what you did and what you found.',
    'If a tool result starts with BLOCKED, the user refused that action: do not retry or work around it; ask the user.',
    `Tools available: ${input.toolNames.join(', ') || 'none'}.`,
    `Working directory: ${input.cwd}`,
    `Date: ${date}`,
  ];
  if (input.skillsIndex) parts.push('', input.skillsIndex);
  const project = readProjectContext(input.cwd);
  if (project) parts.push('', `Project instructions (${project.file}):`, project.text);
  return parts.join('\n');
}

/**
 * A session's system prompt. It names the offered tools, so it is rebuilt when a plugin reload changed
 * them; otherwise it stays byte-for-byte stable and prompt caches keep hitting.
 */
export class SessionSystemPrompt {
  text = '';
  /** The tool names `text` lists, one a line. */
  private tools: string | undefined;

  constructor(private readonly input: { cwd: string; skills: { indexForSystemPrompt(): string } }) {}

  /** Rebuilds the prompt for `toolNames` unless it already lists exactly those; true when it did. */
  update(toolNames: string[]): boolean {
    const tools = toolNames.join('\n');
    if (tools === this.tools) return false;
    this.text = buildSystemPrompt({ cwd: this.input.cwd, toolNames, skillsIndex: this.input.skills.indexForSystemPrompt() });
    this.tools = tools;
    return true;
  }
}
