import type { GatewayWire } from '../wire.js';
import { messagesErrorBody, readMessage, redactMessage, stoppedMessage } from './messages-answer.js';
import { MessagesStreamReader } from './messages-stream-reader.js';
import { readMessagesRequest } from './read-messages-request.js';

const PATH = '/v1/messages';

/**
 * Anthropic Messages (`POST /v1/messages`), plain and streamed: calls are `tool_use` blocks, results
 * `tool_result` blocks (with `is_error`); a stop is a last request with `tool_choice: {type: 'none'}`, or a
 * message of the gateway's, `stop_reason: "end_turn"`, with no `tool_use` left in it.
 */
export const anthropicMessagesWire: GatewayWire = Object.freeze({
  name: 'anthropic-messages',
  provider: 'anthropic',
  matches: (method: string, path: string) => method === 'POST' && (path === PATH || path === `${PATH}/`),
  readRequest: readMessagesRequest,
  readAnswer: readMessage,
  stoppedAnswer: stoppedMessage,
  redactAnswer: redactMessage,
  streamReader: (options: ConstructorParameters<typeof MessagesStreamReader>[0]) =>
    new MessagesStreamReader(options),
  errorBody: messagesErrorBody,
});
