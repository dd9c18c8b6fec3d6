/**
 * A remote upstream's HTTP answer that is no MCP answer: `code` is its status (404: the server forgot the
 * session; 502 to 504: it is down behind its gateway), or -1 for a content type that cannot be read (an
 * HTML page). Read as the SDK's `StreamableHTTPError` is (`isConnectionLoss`, `mcpFailureKind`).
 */
export class UpstreamHttpError extends Error {
  override readonly name = 'UpstreamHttpError';
  readonly code: number;

  constructor(code: number, message: string) {
    super(`Streamable HTTP error: ${message}`);
    this.code = code;
  }
}
