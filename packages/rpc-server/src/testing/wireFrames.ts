import type { BackendProcess } from './backendProcess.ts';

/** An answer as it crossed the wire. */
export interface RawAnswer {
  jsonrpc: string;
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Every single (non-batch) answer the backend wrote to stdout so far, in order. */
export function rawAnswers(backend: BackendProcess): RawAnswer[] {
  return backend.rawLines
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RawAnswer & { method?: unknown })
    .filter((frame) => frame.method === undefined && 'id' in frame);
}

/** The first answer under `id` (compared by type and value). */
export function rawAnswer(backend: BackendProcess, id: string | number | null): RawAnswer | undefined {
  return rawAnswers(backend).find((a) => a.id === id);
}
