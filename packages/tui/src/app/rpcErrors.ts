/** What the TUI makes of a failed backend request, in words a user can act on. */
import { ErrorCode } from '@hermes/rpc-server/protocol';
import type { BackendProcess } from '../rpc/backendProcess.ts';

// Duck-typed rather than `instanceof` so the RPC modules can stay out of the startup path.
export function hasStderrTail(error: unknown): error is { stderrTail: string[] } {
  return typeof error === 'object' && error !== null && Array.isArray((error as { stderrTail?: unknown }).stderrTail);
}

/** What the backend that failed to come up wrote last: carried by the error, else read from the process. */
export function stderrOf(error: unknown, backend: BackendProcess | undefined): string[] {
  return hasStderrTail(error) ? error.stderrTail : (backend?.stderrTail() ?? []);
}

export function errorCode(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}

export function submitFailure(error: unknown): string {
  if (errorCode(error) === ErrorCode.SessionBusy) return 'hermes is still busy with the previous prompt';
  return errorMessage(error);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
