import { Box, Text } from 'ink';

/** How to configure a model, printed once into the transcript when none is configured. */
export function SetupPanel({ hint, title }: { hint: string; title?: string }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} marginTop={1}>
      <Text color="yellow" bold>
        {title ?? 'No model is configured: hermes cannot answer yet'}
      </Text>
      <Text>{hint}</Text>
      {hint.includes('--demo') ? null : <Text dimColor>To try hermes without a key: hermes --demo</Text>}
    </Box>
  );
}
