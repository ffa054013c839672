/** What a session refuses with: the wire code travels with the error (HermesError). */
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';

/** The session is running a turn (or is otherwise in use) and cannot do this now (wire code 4009). */
export class SessionBusyError extends HermesError {
  override name = 'SessionBusyError';
  constructor(message = 'A turn is already running in this session: wait for it, or interrupt it first (Ctrl+C or /stop).') {
    super(ErrorCode.SessionBusy, message);
  }
}

/** No usable model: the message says exactly what to configure (wire code 5032). */
export class ModelUnavailableError extends HermesError {
  override name = 'ModelUnavailableError';
  constructor(message: string) {
    super(ErrorCode.AgentUnavailable, message);
  }
}
