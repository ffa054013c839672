/** `hermes doctor --online`: one tiny request to the configured model, through the provider a turn uses. */
import { createProvider, type ResolvedModel } from '@hermes/agent-core';
import type { DoctorCheck } from '../protocol/shapes.ts';

export async function modelRoundTrip(model: ResolvedModel, timeoutMs: number): Promise<DoctorCheck> {
  const name = 'online';
  const target = `${model.provider}/${model.model} at ${model.baseUrl}`;
  const provider = createProvider(model, { maxTokens: 16 });
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await provider.stream(
      { messages: [{ role: 'user', content: 'Reply with the single word OK.' }], tools: [], signal, stallTimeoutMs: timeoutMs, temperature: 0 },
      () => undefined,
    );
    const ms = Math.round(performance.now() - started);
    const said = response.text.trim().slice(0, 40);
    return { name, status: 'ok', detail: `${target} answered in ${ms} ms${said ? ` ("${said}")` : ''}` };
  } catch (error) {
    const why = signal.aborted ? `no answer within ${timeoutMs / 1000} s` : (error as Error).message;
    return {
      name,
      status: 'fail',
      detail: `${target}: ${why}`,
      fix: 'check model.base_url in config.yaml, the key in .env and the network (hermes chat -q "hi" makes the same call)',
    };
  }
}
