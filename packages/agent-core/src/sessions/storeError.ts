/** A session-store failure with a message the user can act on. */
export class StoreError extends Error {
  override name = 'StoreError';
}
