/**
 * What the backend accepts on the wire, beyond the 16 MiB line cap (`MAX_LINE_BYTES`). A frame or a
 * field past one of these is refused before any work is done, with an error naming the limit.
 */

/** A batch (a JSON array of frames) longer than this is refused whole with -32600. */
export const MAX_BATCH_SIZE = 1000;
/** A string id longer than this is refused with -32600 (an id is echoed in every answer). */
export const MAX_ID_LENGTH = 1024;
/**
 * Output waiting for the client past which the backend stops reading its input, until the client has
 * read it down to a quarter: a client that pipelines requests without ever reading the answers finds
 * its further requests waiting in the pipe, not in the backend's memory. Generous, so that a client
 * that writes a large batch of requests before it starts reading is still served.
 */
export const MAX_OUTPUT_BACKLOG_BYTES = 256 * 1024 * 1024;
/** A method name longer than this is refused with -32600 (no method is nearly this long). */
export const MAX_METHOD_LENGTH = 256;

/** Caps on request fields: the contract's, as the session service enforces them for slash commands too. */
export { ParamLimit } from '@hermes/agent-core/contract/values';
