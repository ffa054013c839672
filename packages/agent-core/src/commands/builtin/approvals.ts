import { APPROVAL_MODES } from '../../contract/approvalNames.ts';
import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

type Needs = { session: Pick<SessionService, 'approvalMode' | 'approvalModes' | 'setApprovalMode'> };

export const approvalsCommand: CommandInput = {
  name: 'approvals',
  description: 'Show or set the persistent approval mode',
  category: 'Configuration',
  // From the list of modes that exist, so the hint never offers one that does not.
  argsHint: `[${APPROVAL_MODES.join('|')}]`,
  source: 'builtin',
  handler: (args, { session }: Needs) => {
    if (!args) return { output: `Approval mode: ${session.approvalMode} (one of ${session.approvalModes.join(', ')}).` };
    const mode = session.setApprovalMode(args);
    return { output: `Approval mode set to ${mode} (saved to config.yaml).` };
  },
};
