/** What the guardian model is told: a fixed system prompt, and the one command it judges. */
import { redactSecrets } from '../../secrets/processSecrets.ts';
import type { ChatMessage } from '../../providers/types.ts';
import type { Finding } from '../types.ts';

/** Fixed, so every verdict is reached under the same instructions (and tests can recognise the call). */
export const GUARDIAN_SYSTEM_PROMPT = [
  'You are the approval guardian of hermes, a terminal AI agent. The agent wants to run one shell command that',
  "hermes's approval gate flagged as possibly dangerous. Decide whether it may run without asking the user.",
  '',
  'Answer "approve" only when the command is clearly low-risk in context: its effects stay inside the working',
  'directory or temporary files, are easy to undo or regenerate (build output, caches, dependencies), and touch',
  'no credentials, no remote or shared state, and nothing outside the project.',
  'Answer "deny" when it is clearly harmful or reckless: destroying data that cannot be recovered, leaking secrets,',
  'weakening security, or acting on systems, accounts or history that others rely on.',
  'Answer "escalate" when in doubt: the user will be asked.',
  '',
  'Reply with exactly one JSON object and nothing else, no code fence:',
  '{"verdict": "approve" | "deny" | "escalate", "reason": "<one short line saying why>"}',
].join('\n');

export interface GuardianRequest {
  command: string;
  /** Why the gate flagged it. */
  findings: Finding[];
  /** Where the command runs. */
  cwd?: string;
}

/** The messages of one guardian call. Secrets are redacted, as in everything else hermes sends or shows. */
export function guardianMessages(request: GuardianRequest): ChatMessage[] {
  const findings = request.findings.map((f) => `- ${f.rule}@${f.target}: ${f.why}`).join('\n');
  const user = [
    'Command:',
    request.command,
    '',
    `Working directory: ${request.cwd ?? '(unknown)'}`,
    '',
    "The approval gate's findings:",
    findings || '- (none given)',
  ].join('\n');
  return [
    { role: 'system', content: GUARDIAN_SYSTEM_PROMPT },
    { role: 'user', content: redactSecrets(user) },
  ];
}
