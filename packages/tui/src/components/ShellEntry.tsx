import { Box, Text } from 'ink';
import { blockedReason, foldShellOutput, stoppedReason, type ShellResult } from '../shell/shellOutput.ts';

function MoreLines({ hidden }: { hidden: number }) {
  return hidden > 0 ? <Text dimColor>+{hidden} more lines</Text> : null;
}

/**
 * What a `!cmd` printed, under the echoed command: stdout, then stderr in red, each folded with
 * "+N more lines"; the exit code when it is not 0, after "stopped" when Ctrl+C or `/stop` ended it; or,
 * when the approval gate refused it, why.
 */
export function ShellEntry({ result }: { result: ShellResult }) {
  const blocked = blockedReason(result);
  if (blocked !== undefined)
    return (
      <Box paddingLeft={2}>
        <Box flexGrow={1} flexShrink={1} flexBasis={0}>
          <Text color="red">⊘ blocked: {blocked}</Text>
        </Box>
      </Box>
    );
  const stopped = stoppedReason(result);
  const { stdout, stderr } = foldShellOutput(stopped ? { ...result, stderr: stopped.stderr } : result);
  const empty = stdout.shown.length === 0 && stderr.shown.length === 0;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {stdout.shown.map((line, index) => (
        <Text key={`o${index}`}>{line || ' '}</Text>
      ))}
      <MoreLines hidden={stdout.hidden} />
      {stderr.shown.map((line, index) => (
        <Text key={`e${index}`} color="red" dimColor>
          {line || ' '}
        </Text>
      ))}
      <MoreLines hidden={stderr.hidden} />
      {empty && result.code === 0 && !stopped ? <Text dimColor>(no output)</Text> : null}
      {stopped ? (
        <Text color="yellow">
          ⊘ stopped: {stopped.reason} · exit {result.code}
        </Text>
      ) : result.code !== 0 ? (
        <Text color="red">exit {result.code}</Text>
      ) : null}
    </Box>
  );
}
