import { Box, Text } from 'ink';
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import { APPROVAL_LABELS, VIEW_COMMAND_KEY } from '../input/approvalKeys.ts';
import { approvalLayout, commandViewLayout, type ApprovalLayout, type ApprovalText, type CommandViewLayout } from '../layout/cardLayout.ts';
import { pagerPosition } from '../layout/commandPager.ts';
import { foldedRows } from '../layout/foldRows.ts';
import type { PendingPrompt } from '../state/viewState.ts';
import { CardCommand } from './CardCommand.tsx';
import { DiffView } from './DiffView.tsx';
import { LEVEL_COLOR } from './levelColor.ts';
import { MarkedText } from './MarkedText.tsx';

type ApprovalPrompt = Extract<PendingPrompt, { kind: 'approval' }>;

/**
 * A dangerous tool call waiting for the user's decision: the tool, every finding of the gate and the
 * command lines they name (always on screen), the rest of the command (and the diff of a file
 * change) as room allows, and the numbered choices with Deny selected at first. `v` swaps the
 * choices for the whole command, paged, its lines holding findings marked.
 */
export function ApprovalCard({ prompt, queued, width, maxRows }: { prompt: ApprovalPrompt; queued: number; width: number; maxRows: number }) {
  const text: ApprovalText = { ...prompt.request, findings: prompt.findings };
  const layout = prompt.pager ? commandViewLayout(text, width, maxRows, prompt.pager.top) : approvalLayout(text, prompt.choices, width, maxRows);
  return (
    <Box flexDirection="column" borderStyle="double" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow" wrap="truncate-end">
        ⚠ approval needed · {prompt.request.tool_name}
      </Text>
      {layout.findings.flatMap((finding, index) =>
        finding.rows.map((row, part) => (
          <MarkedText key={`${index}.${part}`} text={row} color={LEVEL_COLOR[finding.level]} bold={finding.level === 'hardline'} />
        )),
      )}
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
        <CardCommand rows={command} />
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

/**
 * The whole command, wrapped and scrolled, a `›` in the finding's colour before the rows of a line
 * holding one; the position and the keys on the last row.
 */
function CommandView({ layout }: { layout: CommandViewLayout }) {
  const { window, gap } = layout;
  return (
    <>
      <Box flexDirection="column" marginTop={gap ? 1 : 0}>
        {window.rows.map((line, index) => {
          const level = window.levels[index];
          const mark = level ? (
            <Text color={LEVEL_COLOR[level]} bold>
              ›{' '}
            </Text>
          ) : (
            '  '
          );
          return <MarkedText key={index} prefix={mark} text={line} bold />;
        })}
      </Box>
      <Text dimColor wrap="truncate-end">
        {pagerPosition(window)} · ↑↓ PgUp/PgDn scroll · {VIEW_COMMAND_KEY}/Esc back
      </Text>
    </>
  );
}
