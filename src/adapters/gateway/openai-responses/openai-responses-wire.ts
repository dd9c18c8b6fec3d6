import { openAiChatWire } from '../openai-chat/openai-chat-wire.js';
import type { GatewayWire } from '../wire.js';
import { readResponsesRequest } from './read-responses-request.js';
import { readResponse, redactResponse, stoppedResponse } from './responses-answer.js';
import { ResponsesStreamReader } from './responses-stream-reader.js';

const PATH = '/v1/responses';

/**
 * OpenAI Responses (`POST /v1/responses`), plain and streamed: calls are `function_call` output items,
 * results `function_call_output` input items; with `previous_response_id` the request carries only what is
 * new, and the gateway rebuilds the turn from its own memory of each answer (kept in the store). A stop is
 * a last request with `tool_choice: "none"`, or a message item of the gateway's.
 */
export const openAiResponsesWire: GatewayWire = Object.freeze({
  name: 'openai-responses',
  provider: 'openai',
  matches: (method: string, path: string) => method === 'POST' && (path === PATH || path === `${PATH}/`),
  readRequest: readResponsesRequest,
  readAnswer: readResponse,
  stoppedAnswer: stoppedResponse,
  redactAnswer: redactResponse,
  streamReader: (options: ConstructorParameters<typeof ResponsesStreamReader>[0]) =>
    new ResponsesStreamReader(options),
  // The same error shape as chat completions.
  errorBody: openAiChatWire.errorBody,
});
