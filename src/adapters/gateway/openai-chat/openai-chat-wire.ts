import type { GatewayWire } from '../wire.js';
import { readChatCompletion, redactCompletion, stoppedCompletion } from './chat-answer.js';
import { ChatStreamReader } from './chat-stream-reader.js';
import { readChatRequest } from './read-chat-request.js';

const PATH = '/v1/chat/completions';

/** OpenAI chat completions (`POST /v1/chat/completions`), plain and streamed: the gateway's first wire. */
export const openAiChatWire: GatewayWire = Object.freeze({
  name: 'openai-chat',
  provider: 'openai',
  matches: (method: string, path: string) => method === 'POST' && (path === PATH || path === `${PATH}/`),
  readRequest: readChatRequest,
  readAnswer: readChatCompletion,
  stoppedAnswer: stoppedCompletion,
  redactAnswer: redactCompletion,
  streamReader: (options: ConstructorParameters<typeof ChatStreamReader>[0]) => new ChatStreamReader(options),
  errorBody: ({ message, code, status }: { message: string; code: string; status: number }) => ({
    error: {
      message: `toolwarden gateway: ${message}`,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code,
    },
  }),
});
