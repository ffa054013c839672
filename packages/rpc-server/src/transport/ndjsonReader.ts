import type { Readable } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import { MAX_LINE_BYTES } from '../protocol/index.ts';
import { ErrorCode } from '../protocol/errors.ts';
import { FrameError } from './frameError.ts';
import { cancelTarget, classifyFrame } from './frames.ts';
import { LineSplitter, type SplitResult } from './lineSplitter.ts';
import type { RequestGate } from './requestGate.ts';
import type { RequestDispatcher } from './requestDispatcher.ts';

export { FrameError } from './frameError.ts';

export interface NdjsonReaderOptions {
  maxLineBytes?: number;
  /**
   * The serving end's request gate: it answers bad frames, refuses ids still in progress and takes
   * batches. Without one (a client) a bad frame is reported through `onError` as a FrameError.
   */
  gate?: RequestGate;
  /** The serving end's requests go to it rather than to the connection (requestDispatcher.ts). */
  dispatcher?: RequestDispatcher;
}

// Taken when the transport loads, before any plugin: a replaced JSON.parse cannot change what is read.
const parse = JSON.parse;

function preview(text: string): string {
  const flat = text.slice(0, 200).replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** Reads newline-delimited JSON-RPC frames from a byte stream. */
export class NdjsonMessageReader extends AbstractMessageReader {
  private readonly splitter: LineSplitter;
  private readonly maxLineBytes: number;
  private readonly gate: RequestGate | undefined;
  private readonly dispatcher: RequestDispatcher | undefined;
  private callback: DataCallback | undefined;
  private interceptor: ((message: Message) => boolean) | undefined;

  constructor(
    private readonly readable: Readable,
    options: NdjsonReaderOptions = {},
  ) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.gate = options.gate;
    this.dispatcher = options.dispatcher;
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

  private deliver(results: SplitResult[]): void {
    if (results.length === 0) return;
    if (this.dispatcher) this.dispatcher.answerTogether(() => this.deliverEach(results));
    else this.deliverEach(results);
  }

  /** Each line on its own: whatever one frame does, the lines after it in the chunk are still read. */
  private deliverEach(results: SplitResult[]): void {
    for (const result of results) {
      try {
        if (result.kind === 'overflow') {
          const text = `Parse error: a line of ${result.bytes} bytes exceeds the ${this.maxLineBytes}-byte limit and was dropped`;
          this.badFrame(new FrameError(text, ErrorCode.ParseError, null));
          continue;
        }
        let value: unknown;
        try {
          value = parse(result.text);
        } catch (error) {
          const text = `Parse error: ${(error as Error).message} in line "${preview(result.text)}"`;
          this.badFrame(new FrameError(text, ErrorCode.ParseError, null));
          continue;
        }
        for (const message of this.gate ? this.gate.receive(value) : this.check(value)) this.pass(message);
      } catch (error) {
        this.fireError(new Error(`a frame could not be handled: ${(error as Error).stack ?? String(error)}`));
      }
    }
  }

  /** The client's check of one line: well-formed messages pass, anything else is reported. */
  private check(value: unknown): Message[] {
    const frame = classifyFrame(value);
    if (frame.kind === 'invalid') {
      this.badFrame(new FrameError(frame.reason, ErrorCode.InvalidRequest, frame.id));
      return [];
    }
    const cancel = cancelTarget(frame.message);
    if (cancel && 'problem' in cancel) {
      this.badFrame(new FrameError(`Ignored: ${cancel.problem}`, ErrorCode.InvalidParams, null));
      return [];
    }
    return [frame.message];
  }

  private pass(message: Message): void {
    try {
      if (this.interceptor?.(message)) return;
      if (this.dispatcher?.handle(message)) return;
      this.callback?.(message);
    } catch (error) {
      this.fireError(new Error(`a frame could not be handled: ${(error as Error).stack ?? String(error)}`));
    }
  }

  private badFrame(error: FrameError): void {
    if (this.gate) this.gate.refuse(error);
    else this.fireError(error);
  }
}
