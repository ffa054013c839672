import type { ConfigProblemInfo } from '@hermes/rpc-server/protocol';
import { Box, Text } from 'ink';
import { configHeadline } from '../state/configProblems.ts';

/** Mistakes in the user's config that hermes runs on despite: what is wrong, then each problem with its fix. */
export function ConfigProblemsPanel({ problems }: { problems: ConfigProblemInfo[] }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} marginTop={1}>
      <Text color="yellow" bold>
        {configHeadline(problems)}
      </Text>
      {problems.map((problem, index) => (
        <Text key={index}>{problem.text}</Text>
      ))}
    </Box>
  );
}
