// Anthropic messages (`POST /v1/messages`) on 127.0.0.1, answering from ./anthropic/*.json (and *.sse for
// streamed answers), shaped as Anthropic documents them: `content[]` with `text` and `tool_use` blocks
// (`input` an object), `stop_reason: "tool_use"`, `usage.input_tokens` / `output_tokens`.
import {
  type FakeAnswer,
  type FakeServer,
  type FakeServerOptions,
  startFakeServer,
} from './fake-http-server.js';

export { type FakeAnswer, type FakeServer, type RecordedRequest, sentMessages } from './fake-http-server.js';

export function startFakeAnthropicServer(
  answers: readonly FakeAnswer[],
  options: Pick<FakeServerOptions, 'onRequest'> = {},
): Promise<FakeServer> {
  return startFakeServer({
    ...options,
    path: '/v1/messages',
    fixtures: new URL('./anthropic/', import.meta.url),
    answers,
  });
}
