// A server of the gateway bench, in a process of its own so the load generator never shares its event loop:
//   node --import tsx bench/gateway-server.ts providers
//   node --import tsx bench/gateway-server.ts pass-through <provider url>
//   node --import tsx bench/gateway-server.ts gateway <provider url>
// It prints one JSON line (its URL, or the providers' URLs) once it listens, and exits when stdin closes.
// `node --cpu-prof` on this script profiles the gateway alone (see bench/gateway.ts, GATEWAY_BENCH_PROF).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { createGateway } from '../dist/adapters/gateway/index.js';
import { startFakeAnthropic } from '../test/fake-providers/anthropic-messages-provider.js';
import type { FakeChatRequest, FakeChatScript } from '../test/fake-providers/openai-chat-provider.js';
import { startFakeOpenAIChat } from '../test/fake-providers/openai-chat-provider.js';
import { startFakeResponses } from '../test/fake-providers/openai-responses-provider.js';

const ANSWER: FakeChatScript = () => ({ kind: 'text', text: 'Hello there, order shipped on Monday.' });

/** A plain pass-through proxy on node:http, as an operator would write one: the baseline. */
async function passThroughProxy(target: string): Promise<string> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const outgoing = http.request(
      {
        agent,
        hostname: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        void pipeline(answer, response).catch(() => response.destroy());
      },
    );
    outgoing.on('error', () => response.destroy());
    void pipeline(request, outgoing).catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The fakes record every request: each second the bodies go (the count stays, so answer ids stay unique). */
function forgetBodies(requests: FakeChatRequest[]): void {
  const blank = { index: -1, method: '', path: '', headers: {}, text: '', body: undefined };
  let cleared = 0;
  setInterval(() => {
    for (; cleared < requests.length; cleared++) requests[cleared] = blank;
  }, 1000).unref();
}

async function main(): Promise<void> {
  const [role, target] = process.argv.slice(2);
  switch (role) {
    case 'providers': {
      const chat = await startFakeOpenAIChat({ script: ANSWER });
      const anthropic = await startFakeAnthropic({ script: ANSWER });
      const responses = await startFakeResponses({ script: ANSWER });
      for (const provider of [chat, anthropic, responses]) forgetBodies(provider.requests);
      console.log(JSON.stringify({ chat: chat.url, anthropic: anthropic.url, responses: responses.url }));
      break;
    }
    case 'pass-through':
      console.log(JSON.stringify({ url: await passThroughProxy(target as string) }));
      break;
    case 'gateway': {
      const gateway = createGateway({ upstream: { url: target as string } });
      console.log(JSON.stringify({ url: (await gateway.listen({ port: 0 })).url }));
      break;
    }
    default:
      throw new Error(`unknown role ${role}`);
  }
  // The parent ends the server by closing stdin: a clean exit, so `--cpu-prof` writes its profile.
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

await main();
