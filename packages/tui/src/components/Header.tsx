import { homedir } from 'node:os';
import { Box, Text } from 'ink';
import type { SessionInfo } from '@hermes/rpc-server/protocol';
import { displayText } from '../layout/visibleText.ts';

export function modelLabel(info: SessionInfo): string {
  if (info.demo) return 'scripted demo model';
  if (info.setup_hint || !info.model) return 'not configured';
  return info.model;
}

function shortPath(path: string): string {
  const home = homedir();
  return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}

/** The session banner, printed once at the top of the transcript. */
export function Header({ info }: { info: SessionInfo }) {
  const configured = !info.setup_hint && Boolean(info.model);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold color="magenta">
          ⚕ hermes
        </Text>
        {info.version ? <Text dimColor> {info.version}</Text> : null}
      </Text>
      <Text>
        <Text dimColor>  model    </Text>
        <Text color={configured || info.demo ? 'cyan' : 'yellow'}>{displayText(modelLabel(info))}</Text>
        {info.provider ? <Text dimColor> · {displayText(info.provider)}</Text> : null}
      </Text>
      <Text>
        <Text dimColor>  cwd      </Text>
        <Text>{displayText(shortPath(info.cwd))}</Text>
      </Text>
    </Box>
  );
}
