/** Newline-delimited JSON-RPC 2.0 transport for vscode-jsonrpc, used by both ends of the wire. */
import type { Readable, Writable } from 'node:stream';
import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import { NdjsonMessageReader, FrameError, type NdjsonReaderOptions } from './ndjsonReader.ts';
import { NdjsonMessageWriter } from './ndjsonWriter.ts';

export { LineSplitter, type SplitResult } from './lineSplitter.ts';
export { NdjsonMessageReader, FrameError, type NdjsonReaderOptions } from './ndjsonReader.ts';
export { NdjsonMessageWriter } from './ndjsonWriter.ts';

export interface NdjsonConnection {
  connection: MessageConnection;
  reader: NdjsonMessageReader;
  writer: NdjsonMessageWriter;
}

/**
 * A vscode-jsonrpc connection over NDJSON. Frames that cannot be read (bad JSON, over-long lines,
 * non-JSON-RPC objects) are answered with a JSON-RPC error response when `answerBadFrames` is set
 * (the backend) and otherwise reported through `onBadFrame` (the client).
 */
export function createNdjsonConnection(
  input: Readable,
  output: Writable,
  options: NdjsonReaderOptions & { answerBadFrames?: boolean; onBadFrame?: (error: FrameError) => void } = {},
): NdjsonConnection {
  const reader = new NdjsonMessageReader(input, options);
  const writer = new NdjsonMessageWriter(output);
  reader.onError((error) => {
    if (!(error instanceof FrameError)) return;
    options.onBadFrame?.(error);
    if (options.answerBadFrames) {
      void writer
        .write({ jsonrpc: '2.0', id: error.id, error: { code: error.code, message: error.message } } as never)
        .catch(() => undefined);
    }
  });
  const connection = createMessageConnection(reader, writer);
  return { connection, reader, writer };
}
