/**
 * The building blocks of method params: strings and numbers capped by ParamLimit. Named imports from
 * zod/mini keep the backend bundle small (the classic `z` namespace pulls in ~700 KB).
 */
import { int, lte, maxLength, minLength, number, object, optional, positive, string } from 'zod/mini';
import { ParamLimit } from './limits.ts';

/** A string field of at most `cap` characters (see ParamLimit). */
export const cappedString = (cap: number) => string().check(maxLength(cap));

/** A non-empty string field of at most `cap` characters. */
export const nonEmptyString = (cap: number) => string().check(minLength(1, 'must be a non-empty string'), maxLength(cap));

/** A session id: live or stored, or a stored session's title. */
export const sessionId = () => nonEmptyString(ParamLimit.id);

/** An optional session id where the method also serves without one (may be empty: then it names none). */
export const optionalSessionId = () => optional(cappedString(ParamLimit.id));

/** A whole number from 1 to `cap`. */
// The cap is checked first: a huge number is reported against it, not against int()'s own safe-integer bound.
export const count = (cap: number) => number().check(lte(cap), int(), positive('must be a positive whole number'));

/** The params of every method that takes only a session id. */
export const sessionIdParams = object({ session_id: sessionId() });
