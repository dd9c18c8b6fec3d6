/** The error of an answer over the cap: an answer of the server's (not a lost connection), refused. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  /** Read by `mcpFailureKind` as an SDK code it does not know: the server is broken. */
  readonly code = 'RESPONSE_TOO_LARGE';
}
