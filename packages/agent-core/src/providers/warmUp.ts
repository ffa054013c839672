/**
 * What a provider's first call loads, loaded ahead while a new session waits for its first prompt.
 * Node's fetch is built in but lazy: its first use loads undici with http, tls, http2, zlib and the web
 * streams, ~40 ms of one CPU on a 2-core machine (more than the provider's SDK). A `data:` URL goes
 * through the same fetch and the same body reading without the network.
 */

let fetchLoaded: Promise<void> | undefined;

/** Loads Node's fetch by fetching and reading `data:,` once per process; never rejects. */
export function warmFetch(): Promise<void> {
  fetchLoaded ??= (async () => {
    const response = await globalThis.fetch('data:,');
    const reader = response.body!.getReader();
    while (!(await reader.read()).done);
  })().catch(() => undefined);
  return fetchLoaded;
}

/** Loads a provider's SDK (`sdk`, its own cached import) and Node's fetch; never rejects: the call that needs them reports a failure. */
export async function warmProvider(sdk: () => Promise<unknown>): Promise<void> {
  await Promise.all([sdk().catch(() => undefined), warmFetch()]);
}
