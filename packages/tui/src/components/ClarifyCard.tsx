import { Box, Text } from 'ink';
import stringWidth from 'string-width';
import { isTyping, TYPE_AN_ANSWER } from '../input/clarifyKeys.ts';
import { clarifyLayout, CARD_CHROME_COLUMNS } from '../layout/cardLayout.ts';
import { visibleText } from '../layout/visibleText.ts';
import type { PendingPrompt } from '../state/viewState.ts';

type ClarifyPrompt = Extract<PendingPrompt, { kind: 'clarify' }>;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const width = stringWidth;
const graphemesOf = (text: string) => Array.from(graphemes.segment(text), ({ segment }) => segment);

/** The part of a one-row input that fits in `columns`, keeping the cursor in view. */
export function inputWindow(text: string, cursor: number, columns: number): { before: string; at: string; after: string } {
  let at = ' ';
  for (const { segment } of graphemes.segment(text.slice(cursor))) {
    at = segment;
    break;
  }
  let before = text.slice(0, cursor);
  let after = text.slice(cursor + (at === ' ' && cursor >= text.length ? 0 : at.length));
  const room = Math.max(1, columns - width(at));
  while (before && width(before) > room) before = graphemesOf(before).slice(1).join('');
  while (after && width(before) + width(after) > room) after = graphemesOf(after).slice(0, -1).join('');
  return { before, at, after };
}

/** A question from the model: pick one of its suggested answers or type one. */
export function ClarifyCard({ prompt, queued, width: cardWidth, maxRows }: { prompt: ClarifyPrompt; queued: number; width: number; maxRows: number }) {
  const { request, choices, selected } = prompt;
  const options = choices.length > 0 ? [...choices, TYPE_AN_ANSWER] : [];
  const layout = clarifyLayout(request.question, options.length, selected, cardWidth, maxRows);
  const typing = isTyping(choices, prompt);
  const input = inputWindow(prompt.text, prompt.cursor, cardWidth - CARD_CHROME_COLUMNS - 2);
  const shown = options.slice(layout.firstOption, layout.firstOption + layout.optionRows);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={cardWidth}>
      {layout.question.shown.map((line, index) => (
        <Text key={index} bold wrap="truncate-end">
          <Text color="cyan">{index === 0 ? '? ' : '  '}</Text>
          {line}
        </Text>
      ))}
      {layout.question.hidden > 0 ? <Text dimColor>  … +{layout.question.hidden} more lines</Text> : null}
      {shown.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          {shown.map((option, offset) => {
            const index = layout.firstOption + offset;
            const active = index === selected;
            return (
              <Text key={index} color={active ? 'cyan' : undefined} bold={active} dimColor={!active} wrap="truncate-end">
                {active ? '❯ ' : '  '}
                {index + 1} {visibleText(option).replace(/\n/g, ' ')}
              </Text>
            );
          })}
        </Box>
      ) : null}
      <Text wrap="truncate-end" dimColor={!typing}>
        <Text color="cyan">{'› '}</Text>
        {typing ? (
          <>
            {input.before}
            <Text inverse>{input.at}</Text>
            {input.after}
          </>
        ) : prompt.text ? (
          prompt.text
        ) : (
          'type to answer in your own words'
        )}
      </Text>
      <Text dimColor wrap="truncate-end">
        {choices.length > 0 ? '↑/↓ move · ' : ''}Enter send · Esc decline{queued > 0 ? ` · ${queued} more waiting` : ''}
      </Text>
    </Box>
  );
}
