import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { createGateway } from '../dist/adapters/gateway/index.js';
import { MemoryStore, type Store } from '../dist/index.js';
import { type FakeChatScript, startFakeOpenAIChat } from '../test/fake-providers/openai-chat-provider.js';
import { formatRow, settledHeap } from './measure.js';

const LATENCY_REQUESTS = 2_000;
const WARMUP = 200;
const STREAM_REQUESTS = 500;
const THROUGHPUT_REQUESTS = 3_000;
const CONVERSATIONS_KEPT = 2_000;

/** A conversation of 20 messages: a system prompt, the question, nine tool rounds (call and result). */
function history(conversation: number) {
  const messages: unknown[] = [
    { role: 'system', content: 'You answer questions about orders. Use the tools.' },
    { role: 'user', content: `What happened to order A-${conversation}?` },
  ];
  for (let round = 0; round < 9; round++) {
    const id = `call_${conversation}_${round}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name: `step${round}`, arguments: `{"order":"A-${conversation}","page":${round}}` },
        },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: id,
      content: JSON.stringify({
        order: `A-${conversation}`,
        page: round,
        events: ['created', 'paid', 'packed'],
        note: 'x'.repeat(200),
      }),
    });
  }
  return messages;
}

function body(conversation: number, stream: boolean): string {
  return JSON.stringify({
    model: 'fake-model',
    messages: history(conversation),
    tools: Array.from({ length: 9 }, (_, round) => ({
      type: 'function',
      function: { name: `step${round}`, parameters: { type: 'object' } },
    })),
    ...(stream ? { stream: true } : {}),
  });
}

const ANSWER: FakeChatScript = () => ({ kind: 'text', text: 'Hello there, order shipped on Monday.' });

/** A plain pass-through proxy on node:http, as an operator would write one: the baseline. */
async function passThroughProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
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
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const clientAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One POST; resolves with the ms to the first text byte (a stream) or to the whole answer. */
function post(base: string, text: string, session: string, untilText: boolean): Promise<number> {
  const url = new URL('/v1/chat/completions', base);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent: clientAgent,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          authorization: 'Bearer bench',
          'x-toolwarden-session': session,
        },
      },
      (response: IncomingMessage) => {
        let seen = '';
        let done = false;
        response.on('data', (chunk: Buffer) => {
          if (!untilText || done) return;
          seen += chunk.toString('utf8');
          if (seen.includes('"content":"Hello')) {
            done = true;
            resolve(Number(process.hrtime.bigint() - started) / 1e6);
          }
        });
        response.on('end', () => {
          if (!untilText) resolve(Number(process.hrtime.bigint() - started) / 1e6);
          else if (!done) reject(new Error('no text in the stream'));
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Requests interleaved one by one over the subjects, so all see the same machine. */
async function latencies(subjects: Record<string, string>, count: number, stream: boolean) {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  const names = Object.keys(subjects);
  const text = body(1, stream);
  for (let i = 0; i < WARMUP + count; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length] as string;
      const ms = await post(subjects[name] as string, text, 's-latency', stream);
      if (i >= WARMUP) times[name]?.push(ms);
    }
  }
  return times;
}

/** Requests per second with `concurrency` conversations at once, each sending its requests in turn. */
async function throughput(base: string, concurrency: number): Promise<number> {
  const texts = Array.from({ length: concurrency }, (_, index) => body(index, false));
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    texts.map(async (text, index) => {
      while (next < THROUGHPUT_REQUESTS) {
        next++;
        await post(base, text, `s-${index}`, false);
      }
    }),
  );
  return THROUGHPUT_REQUESTS / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** A store counting its round trips. */
function counting(store: Store): Store & { trips: () => number } {
  let trips = 0;
  const trip = <T>(call: () => T): T => {
    trips++;
    return call();
  };
  return {
    get: (key) => trip(() => store.get(key)),
    set: (key, value, options) => trip(() => store.set(key, value, options)),
    delete: (key, options) => trip(() => store.delete(key, options)),
    reserve: (counters, options) => trip(() => store.reserve(counters, options)),
    release: (keys) => trip(() => store.release(keys)),
    trips: () => trips,
  };
}

/**
 * `toolwarden gateway` against a plain node:http pass-through proxy and direct, side by side, all in front
 * of one fake OpenAI chat provider on 127.0.0.1: the latency a 20-message request gains (p50, p99), the
 * first text byte of a stream, requests per second with 1 and 32 conversations, the store's round trips
 * per request, and the memory each conversation keeps (a `MemoryStore`).
 */
export async function benchGateway(): Promise<string[]> {
  const provider = await startFakeOpenAIChat({ script: ANSWER });
  const proxy = await passThroughProxy(provider.url);
  const store = counting(new MemoryStore());
  const gateway = createGateway({ upstream: { url: provider.url }, store });
  const { url: gatewayUrl } = await gateway.listen({ port: 0 });
  const subjects = { direct: provider.url, 'pass-through': proxy.url, gateway: gatewayUrl };
  const lines: string[] = [];
  try {
    const plain = await latencies(subjects, LATENCY_REQUESTS, false);
    provider.requests.length = 0;
    const streamed = await latencies(subjects, STREAM_REQUESTS, true);
    const p = (values: number[] | undefined, q: number) => percentile(values ?? [], q);
    const row = (name: string, times: Record<string, number[]>) => [
      name,
      p(times[name], 50).toFixed(3),
      p(times[name], 99).toFixed(3),
      (p(times[name], 50) - p(times['pass-through'], 50)).toFixed(3),
      (p(times[name], 99) - p(times['pass-through'], 99)).toFixed(3),
    ];
    lines.push(
      `#### Gateway: a 20-message chat completions request, answered with text (${LATENCY_REQUESTS} requests each, interleaved)`,
      '',
      formatRow(['subject', 'p50 ms', 'p99 ms', 'p50 added over pass-through', 'p99 added']),
      formatRow(['---', '---', '---', '---', '---']),
      ...['direct', 'pass-through', 'gateway'].map((name) => formatRow(row(name, plain))),
      '',
      `#### Gateway: first text byte of a streamed answer (${STREAM_REQUESTS} requests each, interleaved)`,
      '',
      formatRow(['subject', 'p50 ms', 'p99 ms', 'p50 added over pass-through', 'p99 added']),
      formatRow(['---', '---', '---', '---', '---']),
      ...['direct', 'pass-through', 'gateway'].map((name) => formatRow(row(name, streamed))),
      '',
    );
    const tripsBefore = store.trips();
    const rates: string[][] = [];
    for (const concurrency of [1, 32]) {
      const baseline = await throughput(proxy.url, concurrency);
      provider.requests.length = 0;
      const guarded = await throughput(gatewayUrl, concurrency);
      provider.requests.length = 0;
      rates.push([
        String(concurrency),
        baseline.toFixed(0),
        guarded.toFixed(0),
        `${((guarded / baseline) * 100).toFixed(0)}%`,
      ]);
    }
    const tripsPerRequest = (store.trips() - tripsBefore) / (2 * THROUGHPUT_REQUESTS);
    lines.push(
      `#### Gateway: requests per second, ${THROUGHPUT_REQUESTS} requests of 20 messages (client, proxy and provider share the machine)`,
      '',
      formatRow(['conversations at once', 'pass-through req/s', 'gateway req/s', 'gateway / pass-through']),
      formatRow(['---', '---', '---', '---']),
      ...rates.map((cells) => formatRow(cells)),
      '',
      `Store round trips per request (the session's record: one read, one write): ${tripsPerRequest.toFixed(2)}`,
    );
    // Memory per conversation kept: a new conversation per request, the store's records after a collection.
    const memoryStore = new MemoryStore();
    const kept = createGateway({ upstream: { url: provider.url }, store: memoryStore });
    const { url: keptUrl } = await kept.listen({ port: 0 });
    // The fake provider keeps every request it was sent: emptied, so only the gateway's memory counts.
    provider.requests.length = 0;
    const before = settledHeap();
    for (let index = 0; index < CONVERSATIONS_KEPT; index++) {
      await post(keptUrl, body(index, false), `kept-${index}`, false);
      provider.requests.length = 0;
    }
    const after = settledHeap();
    await kept.close();
    lines.push(
      `Memory kept per conversation (${CONVERSATIONS_KEPT} conversations of 9 rounds, MemoryStore): ${((after - before) / CONVERSATIONS_KEPT / 1024).toFixed(2)} KiB`,
    );
  } finally {
    await gateway.close();
    await proxy.close();
    await provider.close();
    clientAgent.destroy();
  }
  return lines;
}
