import type { HermesRuntime } from '@hermes/agent-core';
import type { ConfigProblemInfo } from '../protocol/index.ts';

/* session.info itself is built by agent-core's SessionService (info()) after every change it makes; transcripts by its exporter (toTranscript). */

/** The runtime's config problems for the wire, each with its kind (toolset mistakes are `value`s). */
export function configProblemInfos(runtime: HermesRuntime): ConfigProblemInfo[] {
  return runtime.configProblems.map((text, i) => ({ kind: runtime.loaded.problems[i]?.kind ?? 'value', text }));
}
