import type { Readable } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import { MAX_LINE_BYTES } from '../protocol/index.ts';
import { ErrorCode } from '../protocol/errors.ts';
import { LineSplitter } from './lineSplitter.ts';

/**
 * A frame that could not be delivered: fired through the reader's `onError`. The owner of the
 * connection answers it on the wire (`respondToFrameError`) and keeps serving.
 */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly code: typeof ErrorCode.ParseError | typeof ErrorCode.InvalidRequest,
    /** The id of the offending request when one could be read, else null. */
    readonly id: string | number | null,
  ) {
    super(message);
    this.name = 'FrameError';
  }
}

export interface NdjsonReaderOptions {
  maxLineBytes?: number;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

function isMessageShape(value: unknown): value is Message {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.method === 'string') return true;
  return 'id' in v && ('result' in v || 'error' in v);
}

/** Reads newline-delimited JSON-RPC frames from a byte stream. */
export class NdjsonMessageReader extends AbstractMessageReader {
  private readonly splitter: LineSplitter;
  private readonly maxLineBytes: number;
  private callback: DataCallback | undefined;
  private interceptor: ((message: Message) => boolean) | undefined;

  constructor(
    private readonly readable: Readable,
    options: NdjsonReaderOptions = {},
  ) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.splitter = new LineSplitter(this.maxLineBytes);
  }

  /**
   * Sees every message before the connection does; a message for which it returns true is consumed
   * (used for responses to requests the connection did not send itself).
   */
  setInterceptor(interceptor: (message: Message) => boolean): void {
    this.interceptor = interceptor;
  }

  /** Starts reading. Data that arrives before this waits in the stream, so nothing is lost. */
  listen(callback: DataCallback): Disposable {
    if (this.callback) throw new Error('NdjsonMessageReader.listen may be called only once');
    this.callback = callback;
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      this.deliver(this.splitter.push(bytes));
    };
    const onEnd = () => {
      this.deliver(this.splitter.end());
      this.fireClose();
    };
    const onError = (error: Error) => this.fireError(error);
    this.readable.on('data', onData);
    this.readable.once('end', onEnd);
    this.readable.on('error', onError);
    return {
      dispose: () => {
        this.readable.off('data', onData);
        this.readable.off('end', onEnd);
        this.readable.off('error', onError);
        this.callback = undefined;
      },
    };
  }

  private deliver(results: ReturnType<LineSplitter['push']>): void {
    for (const result of results) {
      if (result.kind === 'overflow') {
        this.fireError(
          new FrameError(
            `Parse error: a line of ${result.bytes} bytes exceeds the ${this.maxLineBytes}-byte limit and was dropped`,
            ErrorCode.ParseError,
            null,
          ),
        );
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(result.text);
      } catch (error) {
        this.fireError(
          new FrameError(
            `Parse error: ${(error as Error).message} in line "${preview(result.text)}"`,
            ErrorCode.ParseError,
            null,
          ),
        );
        continue;
      }
      if (!isMessageShape(value)) {
        const id = value && typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : null;
        this.fireError(
          new FrameError(
            'Invalid request: a frame must be a JSON-RPC 2.0 object with a "method" (request or notification) or an "id" with "result"/"error" (response)',
            ErrorCode.InvalidRequest,
            typeof id === 'string' || typeof id === 'number' ? id : null,
          ),
        );
        continue;
      }
      if (this.interceptor?.(value)) continue;
      this.callback?.(value);
    }
  }
}
