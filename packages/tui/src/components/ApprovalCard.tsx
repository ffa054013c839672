import { Box, Text } from 'ink';
import { APPROVAL_LABELS } from '../input/approvalKeys.ts';
import { approvalLayout } from '../layout/cardLayout.ts';
import type { PendingPrompt } from '../state/viewState.ts';
import { DiffView } from './DiffView.tsx';

type ApprovalPrompt = Extract<PendingPrompt, { kind: 'approval' }>;

/**
 * A dangerous tool call waiting for the user's decision: the tool, why it is dangerous, the command
 * (and the diff of a file change), and the numbered choices with Deny selected at first.
 */
export function ApprovalCard({ prompt, queued, width, maxRows }: { prompt: ApprovalPrompt; queued: number; width: number; maxRows: number }) {
  const { request, choices, selected } = prompt;
  const layout = approvalLayout(request, choices, width, maxRows);
  return (
    <Box flexDirection="column" borderStyle="double" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow" wrap="truncate-end">
        ⚠ approval needed · {request.tool_name}
      </Text>
      {layout.description.shown.map((line, index) => (
        <Text key={index} color="yellow" wrap="truncate-end">
          {line}
        </Text>
      ))}
      {layout.description.hidden > 0 ? <Text dimColor>…</Text> : null}
      <Box flexDirection="column" marginTop={1} paddingLeft={2}>
        {layout.command.shown.map((line, index) => (
          <Text key={index} bold wrap="truncate-end">
            {line || ' '}
          </Text>
        ))}
        {layout.command.hidden > 0 ? <Text dimColor>… +{layout.command.hidden} more lines</Text> : null}
      </Box>
      {layout.diff ? (
        <Box flexDirection="column" marginTop={1}>
          <DiffView diff={request.diff ?? ''} maxRows={layout.diff.shown.length + (layout.diff.hidden > 0 ? 1 : 0)} />
        </Box>
      ) : null}
      <Box flexDirection="column" marginTop={1}>
        {choices.map((choice, index) => {
          const active = index === selected;
          const color = active ? (choice === 'deny' ? 'red' : 'green') : undefined;
          return (
            <Text key={choice} color={color} bold={active} dimColor={!active} wrap="truncate-end">
              {active ? '❯ ' : '  '}
              {index + 1} {APPROVAL_LABELS[choice]}
            </Text>
          );
        })}
      </Box>
      <Text dimColor wrap="truncate-end">
        ↑/↓ move · 1–{choices.length} pick · Enter confirm · Esc deny{queued > 0 ? ` · ${queued} more waiting` : ''}
      </Text>
    </Box>
  );
}
