import { Box, Text } from 'ink';
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import { APPROVAL_LABELS, VIEW_COMMAND_KEY } from '../input/approvalKeys.ts';
import { approvalLayout, commandViewLayout, type ApprovalLayout, type ApprovalText, type CommandViewLayout } from '../layout/cardLayout.ts';
import { pagerPosition } from '../layout/commandPager.ts';
import { foldedRows } from '../layout/foldRows.ts';
import type { PendingPrompt } from '../state/viewState.ts';
import { DiffView } from './DiffView.tsx';
import { MarkedText } from './MarkedText.tsx';

type ApprovalPrompt = Extract<PendingPrompt, { kind: 'approval' }>;

const LEVEL_STYLE = {
  hardline: { icon: '⛔', color: 'red' },
  dangerous: { icon: '⚠', color: 'yellow' },
} as const;

/**
 * A dangerous tool call waiting for the user's decision: the tool, every finding of the gate (always
 * on screen), the command (and the diff of a file change), and the numbered choices with Deny
 * selected at first. `v` swaps the choices for the whole command, paged.
 */
export function ApprovalCard({ prompt, queued, width, maxRows }: { prompt: ApprovalPrompt; queued: number; width: number; maxRows: number }) {
  const text: ApprovalText = { ...prompt.request, findings: prompt.findings };
  const layout = prompt.pager ? commandViewLayout(text, width, maxRows, prompt.pager.top) : approvalLayout(text, prompt.choices, width, maxRows);
  return (
    <Box flexDirection="column" borderStyle="double" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow" wrap="truncate-end">
        ⚠ approval needed · {prompt.request.tool_name}
      </Text>
      {layout.findings.map((finding, index) => (
        <MarkedText
          key={index}
          text={`${LEVEL_STYLE[finding.level].icon} ${finding.text}`}
          color={LEVEL_STYLE[finding.level].color}
          bold={finding.level === 'hardline'}
        />
      ))}
      {'window' in layout ? (
        <CommandView layout={layout} />
      ) : (
        <Choices layout={layout} diff={text.diff ?? ''} choices={prompt.choices} selected={prompt.selected} queued={queued} />
      )}
    </Box>
  );
}

function Choices({
  layout,
  diff: diffText,
  choices,
  selected,
  queued,
}: {
  layout: ApprovalLayout;
  diff: string;
  choices: ApprovalChoice[];
  selected: number;
  queued: number;
}) {
  const { command, diff, gaps } = layout;
  return (
    <>
      {layout.description.map((line, index) => (
        <MarkedText key={index} text={line} color="yellow" />
      ))}
      <Box flexDirection="column" marginTop={gaps.command ? 1 : 0} paddingLeft={2}>
        {command.shown.map((line, index) => (
          <MarkedText key={index} text={line} bold />
        ))}
        {command.hidden > 0 ? (
          <Text dimColor wrap="truncate-end">
            … +{command.hidden} more lines · {VIEW_COMMAND_KEY} to read them all
          </Text>
        ) : null}
      </Box>
      {diff ? (
        <Box flexDirection="column" marginTop={gaps.diff ? 1 : 0}>
          {diff.shown.length > 0 ? (
            <DiffView diff={diffText} maxRows={foldedRows(diff)} />
          ) : (
            <Text dimColor wrap="truncate-end">
              … a diff of {diff.hidden} lines (no room to show it here)
            </Text>
          )}
        </Box>
      ) : null}
      <Box flexDirection="column" marginTop={gaps.choices ? 1 : 0}>
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
        ↑↓/1–{choices.length} pick · Enter confirm · Esc deny · {VIEW_COMMAND_KEY} full command
        {queued > 0 ? ` · ${queued} more waiting` : ''}
      </Text>
    </>
  );
}

/** The whole command, wrapped and scrolled; the position and the keys on the last row. */
function CommandView({ layout }: { layout: CommandViewLayout }) {
  const { window, gap } = layout;
  return (
    <>
      <Box flexDirection="column" marginTop={gap ? 1 : 0} paddingLeft={2}>
        {window.rows.map((line, index) => (
          <MarkedText key={index} text={line} bold />
        ))}
      </Box>
      <Text dimColor wrap="truncate-end">
        {pagerPosition(window)} · ↑↓ PgUp/PgDn scroll · {VIEW_COMMAND_KEY}/Esc back
      </Text>
    </>
  );
}
