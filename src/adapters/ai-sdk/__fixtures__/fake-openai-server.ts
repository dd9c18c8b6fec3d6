// OpenAI chat completions (`POST /v1/chat/completions`) on 127.0.0.1, answering from ./openai/*.json (and
// *.sse for streamed answers), shaped as OpenAI documents them: `choices[0].message.tool_calls[]` with
// `function.arguments` as a string, `finish_reason`, `usage.prompt_tokens` / `completion_tokens`.
import {
  type FakeAnswer,
  type FakeServer,
  type FakeServerOptions,
  startFakeServer,
} from './fake-http-server.js';

export { type FakeAnswer, type FakeServer, type RecordedRequest, sentMessages } from './fake-http-server.js';

export function startFakeOpenAiServer(
  answers: readonly FakeAnswer[],
  options: Pick<FakeServerOptions, 'onRequest'> = {},
): Promise<FakeServer> {
  return startFakeServer({
    ...options,
    path: '/v1/chat/completions',
    fixtures: new URL('./openai/', import.meta.url),
    answers,
  });
}
