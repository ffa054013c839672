import { Text } from 'ink';

/** A one-line reminder under the transcript while no model is configured; the full instructions are above. */
export function SetupReminder() {
  return (
    <Text color="yellow" wrap="truncate-end">
      ⚠ No model configured: see the setup instructions above, or run hermes --demo
    </Text>
  );
}
