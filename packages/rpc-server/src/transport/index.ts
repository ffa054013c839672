/** Newline-delimited JSON-RPC 2.0 transport for vscode-jsonrpc, used by both ends of the wire. */
import type { Readable } from 'node:stream';
import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import { NdjsonMessageReader, FrameError, type NdjsonReaderOptions } from './ndjsonReader.ts';
import { NdjsonMessageWriter, type FrameSink } from './ndjsonWriter.ts';
import { RequestGate } from './requestGate.ts';
import { RequestDispatcher } from './requestDispatcher.ts';
import { MAX_OUTPUT_BACKLOG_BYTES } from '../protocol/index.ts';

export { LineSplitter, type SplitResult } from './lineSplitter.ts';
export { NdjsonMessageReader, FrameError, type NdjsonReaderOptions } from './ndjsonReader.ts';
export { NdjsonMessageWriter, type FrameSink } from './ndjsonWriter.ts';
export { RequestGate } from './requestGate.ts';
export { RequestDispatcher, type RequestHandler } from './requestDispatcher.ts';
export { classifyFrame, type Frame, type RpcId } from './frames.ts';

export interface NdjsonConnection {
  connection: MessageConnection;
  reader: NdjsonMessageReader;
  writer: NdjsonMessageWriter;
  /** The serving end's requests (`answerBadFrames`): register handlers here, not with `connection.onRequest`. */
  dispatcher?: RequestDispatcher;
}

/** Back-pressure from the output to the input (see MAX_OUTPUT_BACKLOG_BYTES). */
function pauseInputWhileBacklogged(input: Readable, writer: NdjsonMessageWriter, limit: number): void {
  let paused = false;
  writer.onBacklog(() => {
    const queued = writer.backlogBytes;
    if (!paused && queued > limit) {
      paused = true;
      input.pause();
    } else if (paused && queued <= limit / 4) {
      paused = false;
      input.resume();
    }
  });
}

/**
 * A vscode-jsonrpc connection over NDJSON. With `answerBadFrames` (the serving end) requests pass a
 * RequestGate: frames that are not JSON-RPC 2.0 are answered with the error the spec names, ids
 * still in progress are refused, batches are served; `onBadFrame` hears of each refusal. The requests
 * it admits are answered by the returned `dispatcher`, not the connection (requestDispatcher.ts says
 * why). Without it (a client) bad frames are only reported through `onBadFrame`.
 */
export function createNdjsonConnection(
  input: Readable,
  output: FrameSink,
  options: Omit<NdjsonReaderOptions, 'gate'> & {
    answerBadFrames?: boolean;
    onBadFrame?: (error: FrameError) => void;
    /** The serving end's MAX_OUTPUT_BACKLOG_BYTES (smaller in tests). */
    maxOutputBacklogBytes?: number;
  } = {},
): NdjsonConnection {
  let gate: RequestGate | undefined;
  const writer = new NdjsonMessageWriter(output, options.answerBadFrames ? (message) => gate!.outgoing(message) : undefined);
  if (options.answerBadFrames) {
    // A failed write is reported by the writer's own onError (the connection logs it).
    gate = new RequestGate(
      (frame) => void writer.writeVerbatim(frame).catch(() => undefined),
      (error) => options.onBadFrame?.(error),
    );
  }
  const dispatcher = options.answerBadFrames ? new RequestDispatcher(writer) : undefined;
  const reader = new NdjsonMessageReader(input, { ...options, gate, dispatcher });
  reader.onError((error) => {
    if (error instanceof FrameError) options.onBadFrame?.(error);
  });
  if (gate) pauseInputWhileBacklogged(input, writer, options.maxOutputBacklogBytes ?? MAX_OUTPUT_BACKLOG_BYTES);
  const connection = createMessageConnection(reader, writer);
  if (dispatcher) connection.onDispose(() => dispatcher.dispose());
  return { connection, reader, writer, dispatcher };
}
