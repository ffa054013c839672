/** The real backend on a scripted model, with a client that records and answers every `approval` request. */
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { ApprovalChoice, ServerRequestMap } from '../protocol/index.ts';
import { BackendProcess } from './backendProcess.ts';

export type ApprovalParams = ServerRequestMap['approval']['params'];

export interface ApprovalBackend {
  server: ModelServer;
  backend: BackendProcess;
  /** Every approval request, in order. */
  asked: ApprovalParams[];
}

/**
 * Starts both in `home` (its config.yaml as the caller wrote it). `answer` returning null never answers
 * (the question stays open). `defer` receives what to stop when the test ends.
 */
export async function startApprovalBackend(
  options: {
    turns: Turn[];
    home: string;
    env?: Record<string, string>;
    answer: (params: ApprovalParams) => ApprovalChoice | null | Promise<ApprovalChoice | null>;
  },
  defer: (cleanup: () => Promise<unknown>) => void,
): Promise<ApprovalBackend> {
  const server = await startModelServer({ turns: options.turns });
  defer(() => server.close());
  const backend = new BackendProcess({
    home: options.home,
    env: options.env,
    args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'],
  });
  defer(() => backend.stop());
  const asked: ApprovalParams[] = [];
  backend.connection.onRequest('approval', async (params: ApprovalParams) => {
    asked.push(params);
    const choice = await options.answer(params);
    return choice === null ? new Promise(() => undefined) : { choice };
  });
  return { server, backend, asked };
}
