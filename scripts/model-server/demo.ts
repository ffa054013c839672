/**
 * The script behind `hermes --demo`: it shows a streamed answer and one tool call without any API key,
 * then tells the user how to configure a real model. It loops so the demo survives any number of prompts.
 */
import type { Script } from './script.ts';

/** Slow enough for the stream to be visible, fast enough not to bore. */
const DEMO_CHUNK_DELAY_MS = 25;

export function demoScript(filePath: string): Script {
  return {
    model: 'hermes-demo',
    loop: true,
    turns: [
      {
        text: "Hi! I'm a scripted demo model, not a real one. Let me read a file to show you how tools work.",
        chunk_size: 6,
        chunk_delay_ms: DEMO_CHUNK_DELAY_MS,
        tool_calls: [{ name: 'read_file', arguments: { path: filePath } }],
      },
      {
        text:
          'That was a scripted demo: every word I wrote, and the `read_file` call, came from a fixed script, ' +
          'so nothing I say depends on what you typed. ' +
          'To talk to a real model, set `model.provider`, `model.default` and, for OpenAI-compatible servers, ' +
          '`model.base_url` in `~/.hermes/config.yaml`. ' +
          'Put your key in `OPENAI_API_KEY` (in your environment or in `$HERMES_HOME/.env`). ' +
          'Or pass it all on the command line: `hermes --provider openai --model <name> --base-url <url>`.',
        chunk_size: 6,
        chunk_delay_ms: DEMO_CHUNK_DELAY_MS,
      },
    ],
  };
}
