import { type ErrorCode, HermesError } from '../protocol/index.ts';

/**
 * A frame that could not be delivered. On the serving end it is answered on the wire (when it can
 * be: a notification never is) and logged; on the client end it is reported through `onBadFrame`.
 */
export class FrameError extends HermesError {
  constructor(
    message: string,
    override readonly code: typeof ErrorCode.ParseError | typeof ErrorCode.InvalidRequest | typeof ErrorCode.InvalidParams,
    /** The id of the offending request when one could be read, else null. */
    readonly id: string | number | null,
  ) {
    super(code, message);
    this.name = 'FrameError';
  }
}
