// `toolwarden gateway --config gateway.json` as an operator runs it: the real bin in a child process in
// front of the fake provider, with the provider's key from the environment; and its config errors.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loopingAnthropicModel,
  startFakeAnthropic,
} from '../../test/fake-providers/anthropic-messages-provider.js';
import {
  type FakeOpenAIChat,
  loopingModel,
  startFakeOpenAIChat,
} from '../../test/fake-providers/openai-chat-provider.js';
import {
  loopingResponsesModel,
  startFakeResponses,
} from '../../test/fake-providers/openai-responses-provider.js';
import { runClientLoop } from '../adapters/gateway/__fixtures__/client-loop.js';
import { startRedisServer } from '../adapters/redis/__fixtures__/redis-server.js';
import type { CommandIo } from './command-io.js';
import { parseGatewayArgs, runGatewayCommand } from './gateway-command.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const KEY = 'sk-gateway-test-0123456789abcdefghijklmnopqrstuvwxyz';

let folder: string;
let provider: FakeOpenAIChat;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-gateway-cli-'));
  provider = await startFakeOpenAIChat({
    script: loopingModel({ tool: 'getStatus', arguments: { id: 'A-1' }, answer: 'Still pending.' }),
  });
});
afterAll(async () => {
  await provider.close();
  await rm(folder, { recursive: true, force: true });
});

function bufferIo(): CommandIo & { out: string; err: string } {
  const io = {
    cwd: folder,
    out: '',
    err: '',
    stdout: async (text: string) => {
      io.out += text;
    },
    stderr: async (text: string) => {
      io.err += text;
    },
  };
  return io;
}

/** The bin in a child process; resolves once it says where it listens. */
async function startBin(config: unknown, env: Record<string, string> = {}) {
  const path = join(folder, `gateway-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, JSON.stringify(config));
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX, main, 'gateway', '--config', path], {
    cwd: folder,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = /listening on (http:\/\/\S+) /.exec(stderr);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, url: await listening, stderr: () => stderr };
}

describe('toolwarden gateway', () => {
  it('serves with the key from the environment, stops a loop, writes the audit log, and exits 0 on SIGTERM', async () => {
    const audit = join(folder, 'audit.jsonl');
    const bin = await startBin(
      {
        listen: { port: 0 },
        upstream: { url: provider.url, apiKeyEnv: 'PROVIDER_KEY' },
        audit: { jsonl: audit },
        tools: { getStatus: { effect: 'read' } },
      },
      { PROVIDER_KEY: KEY },
    );
    const client = new OpenAI({ baseURL: `${bin.url}/v1`, apiKey: 'not-the-key', maxRetries: 0 });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'A-1?' },
    ];
    const tools = [
      { type: 'function' as const, function: { name: 'getStatus', parameters: { type: 'object' } } },
    ];
    let final: string | null | undefined;
    for (let round = 0; round < 10 && final === undefined; round++) {
      const message = (await client.chat.completions.create({ model: 'm', messages, tools })).choices[0]
        ?.message;
      if (message === undefined) throw new Error('no choice');
      messages.push(message);
      if ((message.tool_calls ?? []).length === 0) final = message.content;
      for (const call of message.tool_calls ?? [])
        messages.push({ role: 'tool', tool_call_id: call.id, content: '{"state":"PENDING"}' });
    }
    expect(final).toBe('Still pending.');
    for (const request of provider.chatRequests())
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    bin.child.kill('SIGTERM');
    const [code] = await once(bin.child, 'exit');
    expect(code).toBe(0);
    expect(bin.stderr()).not.toContain(KEY);
    const records = (await readFile(audit, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.at(-1)).toMatchObject({ kind: 'run', outcome: 'stopped', stopReason: 'LOOP_DETECTED' });
    expect(JSON.stringify(records)).not.toContain(KEY);
  });
});

describe('two toolwarden gateway processes on one Redis', () => {
  it('serve one conversation alternately and stop its loop as one process would', async () => {
    const redis = await startRedisServer();
    const bins: Awaited<ReturnType<typeof startBin>>[] = [];
    try {
      const config = {
        listen: { port: 0 },
        upstream: { url: provider.url },
        store: { redis: redis.url },
        audit: { jsonl: join(folder, 'two.jsonl') },
      };
      bins.push(await startBin(config), await startBin(config));
      // A round-robin load balancer: each request of the conversation goes to the next process.
      let next = 0;
      const balanced = (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : input);
        url.host = new URL((bins[next++ % bins.length] as { url: string }).url).host;
        return fetch(url, init);
      };
      const run = await runClientLoop({
        baseURL: `${bins[0]?.url}/v1`,
        tools: ['getStatus'],
        run: () => '{"state":"PENDING"}',
        headers: { 'x-toolwarden-session': 'two-processes' },
        fetch: balanced,
      });
      expect(run).toMatchObject({ rounds: 4, executions: 3, final: 'Still pending.' });
      expect(next).toBe(4);
    } finally {
      for (const bin of bins) {
        bin.child.kill('SIGTERM');
        await once(bin.child, 'exit');
      }
      await redis.stop();
    }
    // Each process wrote the records of the requests it served: each call once, one run, between them.
    const records = (await readFile(join(folder, 'two.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; outcome: string });
    expect(records.filter((record) => record.kind === 'call' && record.outcome === 'success')).toHaveLength(
      3,
    );
    expect(records.filter((record) => record.kind === 'run')).toHaveLength(1);
  }, 60_000);
});

/**
 * Two bins on a private redis-server in front of `providerUrl`; `drive` runs an app's loop whose requests a
 * round-robin balancer sends to each process in turn (`fetch`), and returns what it ran. The processes are
 * stopped, and the audit they wrote between them read, before this resolves.
 */
async function twoBins<T>(
  providerUrl: string,
  drive: (baseUrl: string, fetch: typeof globalThis.fetch) => Promise<T>,
): Promise<{ run: T; sent: number; records: { kind: string; outcome: string; turnId: string }[] }> {
  const redis = await startRedisServer();
  const audit = join(folder, `two-${Math.random().toString(36).slice(2)}.jsonl`);
  const bins: Awaited<ReturnType<typeof startBin>>[] = [];
  let next = 0;
  let run: T;
  try {
    const config = {
      listen: { port: 0 },
      upstream: { url: providerUrl },
      store: { redis: redis.url },
      audit: { jsonl: audit },
    };
    bins.push(await startBin(config), await startBin(config));
    const balanced = (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      url.host = new URL((bins[next++ % bins.length] as { url: string }).url).host;
      return fetch(url, init);
    };
    run = await drive((bins[0] as { url: string }).url, balanced as typeof globalThis.fetch);
  } finally {
    for (const bin of bins) {
      bin.child.kill('SIGTERM');
      await once(bin.child, 'exit');
    }
    await redis.stop();
  }
  const records = (await readFile(audit, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; outcome: string; turnId: string });
  return { run, sent: next, records };
}

const SESSION = { 'x-toolwarden-session': 'two-processes' };

describe('two toolwarden gateway processes on one Redis, on the other wires', () => {
  it('Anthropic Messages: serve one conversation alternately and stop its loop as one process would', async () => {
    const anthropic = await startFakeAnthropic({
      script: loopingAnthropicModel({
        tool: 'getStatus',
        arguments: { id: 'A-1' },
        answer: 'Still pending.',
      }),
    });
    try {
      const { run, sent, records } = await twoBins(anthropic.url, async (baseURL, fetch) => {
        const client = new Anthropic({
          baseURL,
          apiKey: 'app-key',
          maxRetries: 0,
          fetch,
          defaultHeaders: SESSION,
        });
        const tools: Anthropic.Tool[] = [
          { name: 'getStatus', input_schema: { type: 'object', properties: {} } },
        ];
        const messages: Anthropic.MessageParam[] = [
          { role: 'user', content: 'What is the status of order A-1?' },
        ];
        let executions = 0;
        for (let round = 1; round <= 10; round++) {
          const message = await client.messages.create({
            model: 'fake-claude',
            max_tokens: 1024,
            messages,
            tools,
          });
          messages.push({ role: 'assistant', content: message.content });
          const uses = message.content.filter((block) => block.type === 'tool_use');
          if (uses.length === 0) {
            const final = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
            return { rounds: round, executions, final };
          }
          executions += uses.length;
          messages.push({
            role: 'user',
            content: uses.map((use) => ({
              type: 'tool_result',
              tool_use_id: use.id,
              content: '{"state":"PENDING"}',
            })),
          });
        }
        return { rounds: 10, executions, final: undefined };
      });
      expect(run).toEqual({ rounds: 4, executions: 3, final: 'Still pending.' });
      expect(sent).toBe(4);
      expect(records.filter((record) => record.kind === 'call' && record.outcome === 'success')).toHaveLength(
        3,
      );
      expect(records.filter((record) => record.kind === 'run')).toHaveLength(1);
    } finally {
      await anthropic.close();
    }
  }, 60_000);

  it('Responses with previous_response_id: each chained request reads the memory the other process kept', async () => {
    const responses = await startFakeResponses({
      script: loopingResponsesModel({
        tool: 'getStatus',
        arguments: { id: 'A-1' },
        answer: 'Still pending.',
      }),
    });
    try {
      const { run, sent, records } = await twoBins(responses.url, async (baseURL, fetch) => {
        const client = new OpenAI({
          baseURL: `${baseURL}/v1`,
          apiKey: 'app-key',
          maxRetries: 0,
          fetch,
          defaultHeaders: SESSION,
        });
        const tools: OpenAI.Responses.FunctionTool[] = [
          {
            type: 'function',
            name: 'getStatus',
            parameters: { type: 'object', properties: {} },
            strict: false,
          },
        ];
        let input: OpenAI.Responses.ResponseInputItem[] = [
          { role: 'user', content: 'What is the status of order A-1?' },
        ];
        let previous: string | undefined;
        let executions = 0;
        for (let round = 1; round <= 10; round++) {
          const response = await client.responses.create({
            model: 'fake-model',
            input,
            tools,
            store: true,
            ...(previous === undefined ? {} : { previous_response_id: previous }),
          });
          const calls = response.output.filter((item) => item.type === 'function_call');
          if (calls.length === 0) return { rounds: round, executions, final: response.output_text };
          executions += calls.length;
          input = calls.map((call) => ({
            type: 'function_call_output',
            call_id: call.call_id,
            output: '{"state":"PENDING"}',
          }));
          previous = response.id;
        }
        return { rounds: 10, executions, final: undefined };
      });
      expect(run).toEqual({ rounds: 4, executions: 3, final: 'Still pending.' });
      expect(sent).toBe(4);
      expect(records.filter((record) => record.kind === 'call' && record.outcome === 'success')).toHaveLength(
        3,
      );
      expect(records.filter((record) => record.kind === 'run')).toHaveLength(1);
      // Only what is new went in each chained request: one turn, rebuilt from the chain records in Redis
      // (without them each request would be a turn of its own, `no-memory:`).
      const turns = new Set(records.map((record) => record.turnId));
      expect(turns.size).toBe(1);
      expect([...turns][0]).not.toMatch(/^no-memory:/);
    } finally {
      await responses.close();
    }
  }, 60_000);
});

describe('toolwarden gateway: usage and config errors', () => {
  it('reads its arguments', () => {
    expect(parseGatewayArgs(['--config', 'g.json'])).toEqual({ kind: 'run', config: 'g.json' });
    expect(parseGatewayArgs(['--config=g.json'])).toEqual({ kind: 'run', config: 'g.json' });
    expect(parseGatewayArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseGatewayArgs([])).toEqual({ kind: 'usage-error', message: 'gateway needs --config <file>' });
    expect(parseGatewayArgs(['--port', '1'])).toEqual({
      kind: 'usage-error',
      message: 'unknown argument for gateway: --port',
    });
  });

  it('lists every problem of a bad config and exits 2, naming a key variable that is not set without a key', async () => {
    await writeFile(
      join(folder, 'bad.json'),
      JSON.stringify({ upstream: { url: 'nope' }, limits: { perTool: 0 } }),
    );
    const io = bufferIo();
    expect(await runGatewayCommand(['--config', 'bad.json'], io, { env: {} })).toBe(2);
    expect(io.err).toContain('Invalid gateway config bad.json (2 problems)');
    expect(io.err).toContain('$.limits.perTool: must be an integer >= 1, got 0');
    await writeFile(
      join(folder, 'nokey.json'),
      JSON.stringify({ upstream: { url: 'https://api.openai.com', apiKeyEnv: 'MISSING_KEY' } }),
    );
    const missing = bufferIo();
    expect(await runGatewayCommand(['--config', 'nokey.json'], missing, { env: {} })).toBe(2);
    expect(missing.err).toContain(
      '$.upstream.apiKeyEnv: names MISSING_KEY, which is not set in the environment',
    );
    const absent = bufferIo();
    expect(await runGatewayCommand(['--config', 'absent.json'], absent, { env: {} })).toBe(2);
    expect(absent.err).toContain('Invalid gateway config absent.json');
  });
});
