// A real Spring AI 2.0.1 app (interop/spring-ai/: Boot 4.0.7, a ChatClient with the article's @Tool
// methods) against a fake OpenAI chat provider on 127.0.0.1, run as `java -jar` with nothing but its base
// URL pointed at the provider, then at a toolwarden gateway in front of it. On its own, Spring AI's
// ToolCallingAdvisor loops while the model asks for tools, and DefaultToolCallingManager stops a turn at 40
// calls of one tool or 150 calls in all (ToolCallLimitExceededException, which the advisor catches and turns
// into the answer). Through the gateway, the loop and the gateway's limits end the turn in a few rounds
// with the model's own answer, and secrets in tool results stay off the wire to the provider.
import { beforeAll, describe, expect, it } from 'vitest';
import { type MemoryAuditSink, memoryAuditSink } from '../../src/adapters/gateway/__fixtures__/recorders.js';
import { createGateway } from '../../src/adapters/gateway/create-gateway.js';
import type { GatewayOptions } from '../../src/adapters/gateway/gateway-options.js';
import {
  type FakeChatScript,
  type FakeOpenAIChat,
  loopingModel,
  messagesOf,
  scripted,
  startFakeOpenAIChat,
  toolsOff,
} from '../fake-providers/openai-chat-provider.js';
import {
  buildSpringAiApp,
  runSpringAiApp,
  SPRING_AI_APP_SECRETS,
  SPRING_AI_TEST_TIMEOUT_MS,
  type SpringAiTool,
} from './__fixtures__/spring-ai-app.js';

/** Builds the jar when missing (cold: about a minute with Maven Central; warm and offline: seconds). */
beforeAll(async () => {
  await buildSpringAiApp();
}, 600_000);

const ORDER_LOOP = { tool: 'queryOrderStatus', arguments: { orderId: 'A-1' } } as const;

/** After this many chat requests the fake model gives up and answers: the provider's own cap. */
const PROVIDER_CAP = 100;

function capped(script: FakeChatScript): FakeChatScript {
  return (request) =>
    request.index >= PROVIDER_CAP ? { kind: 'text', text: 'The provider cap was reached.' } : script(request);
}

async function withProvider<T>(script: FakeChatScript, run: (provider: FakeOpenAIChat) => Promise<T>) {
  const provider = await startFakeOpenAIChat({ script });
  try {
    return await run(provider);
  } finally {
    await provider.close();
  }
}

/** The `tool` messages of a request, in order. */
function toolMessages(request: Parameters<typeof messagesOf>[0]) {
  return messagesOf(request).filter((message) => message.role === 'tool');
}

const NO_CALLS: Record<SpringAiTool, number> = {
  counted: 0,
  echo: 0,
  explode: 0,
  noArgs: 0,
  queryOrderStatus: 0,
  readDeploymentConfig: 0,
};

describe('a Spring AI 2.0.1 app straight to the provider (no gateway)', {
  timeout: SPRING_AI_TEST_TIMEOUT_MS,
}, () => {
  it('runs a looping model to Spring AI per-tool limit: 40 executions, 41 provider requests, the breach as its answer', async () => {
    await withProvider(capped(loopingModel(ORDER_LOOP)), async (provider) => {
      const run = await runSpringAiApp({ baseUrl: `${provider.url}/v1` });

      // No exception reaches the app: ToolCallingAdvisor catches ToolCallLimitExceededException and
      // returns its message as the turn's answer, with a finish reason of its own.
      expect(run.status).toBe(0);
      expect(run.summary).toEqual({
        answer:
          "Tool call limit (40) exceeded for tool 'queryOrderStatus'. No further calls to this tool are allowed in this turn.",
        finishReason: 'toolCallLimitExceeded',
        calls: { ...NO_CALLS, queryOrderStatus: 40 },
        error: null,
      });
      const requests = provider.chatRequests();
      expect(requests).toHaveLength(41);
      expect(provider.requests).toHaveLength(41);
      // Each request carries the whole turn: the 41st holds the 40 results, every one of them PAID.
      const results = toolMessages(requests.at(-1));
      expect(results).toHaveLength(40);
      expect(new Set(results.map((message) => message.content))).toEqual(
        new Set(['{"code":0,"data":{"state":"PAID"}}']),
      );
    });
  });

  it('stops a model that calls every tool each round at Spring AI total limit: 150 calls a turn', async () => {
    const everyTool: readonly SpringAiTool[] = [
      'echo',
      'noArgs',
      'counted',
      'queryOrderStatus',
      'readDeploymentConfig',
      'explode',
    ];
    const script: FakeChatScript = () => ({
      kind: 'tool-calls',
      calls: everyTool.map((name) => ({
        name,
        arguments: name === 'echo' ? { text: 'hi' } : name === 'explode' ? { reason: 'test' } : {},
      })),
    });
    await withProvider(capped(script), async (provider) => {
      const run = await runSpringAiApp({ baseUrl: `${provider.url}/v1` });

      // 25 rounds of 6 calls make 150; the 26th round's first call is the 151st.
      expect(run.status).toBe(0);
      expect(run.summary).toEqual({
        answer: 'Total tool call limit (150) exceeded for this turn. No further tool calls are allowed.',
        finishReason: 'toolCallLimitExceeded',
        calls: Object.fromEntries(everyTool.map((name) => [name, 25])),
        error: null,
      });
      expect(provider.chatRequests()).toHaveLength(26);
    });
  });

  it('runs a benign conversation to the model answer, a tool exception fed back to the model as text', async () => {
    const script = scripted(
      {
        kind: 'tool-calls',
        calls: [
          { name: 'echo', arguments: { text: 'hello' } },
          { name: 'noArgs', arguments: {} },
          { name: 'counted', arguments: {} },
        ],
      },
      {
        kind: 'tool-calls',
        calls: [
          { name: 'explode', arguments: { reason: 'disk full' } },
          { name: 'readDeploymentConfig', arguments: {} },
        ],
      },
      { kind: 'text', text: 'Order A-1 is paid.' },
    );
    await withProvider(script, async (provider) => {
      const run = await runSpringAiApp({ baseUrl: `${provider.url}/v1`, session: 'order-chat-7' });

      expect(run.status).toBe(0);
      expect(run.summary).toEqual({
        answer: 'Order A-1 is paid.',
        finishReason: 'STOP',
        calls: { ...NO_CALLS, echo: 1, noArgs: 1, counted: 1, explode: 1, readDeploymentConfig: 1 },
        error: null,
      });
      const requests = provider.chatRequests();
      expect(requests).toHaveLength(3);
      const results = toolMessages(requests[2]).map((message) => message.content);
      // Strings that are not JSON are sent as JSON strings; the exception's message is the tool's result.
      expect(results.slice(0, 3)).toEqual(['"hello"', '"pong"', '1']);
      expect(results[3]).toContain('explode failed: disk full');
      // Straight to the provider, the secrets in a tool's result reach it as the tool returned them.
      for (const secret of SPRING_AI_APP_SECRETS) expect(results[4]).toContain(secret);
      // What the app's properties set: the key as a bearer token, the model, <base-url>/chat/completions.
      for (const request of requests) {
        expect(request.headers.authorization).toBe('Bearer sk-test-not-a-real-key');
        expect(request.path).toBe('/v1/chat/completions');
        expect(request.body).toMatchObject({ model: 'gpt-4o-mini' });
        // A per-call option (`OpenAiChatOptions.customHeaders`) reaches every round of the tool loop.
        expect(request.headers['x-toolwarden-session']).toBe('order-chat-7');
      }
    });
  });
});

describe('the same app through the toolwarden gateway (only its base URL changed)', {
  timeout: SPRING_AI_TEST_TIMEOUT_MS,
}, () => {
  /** A fake provider, a gateway of this test in front of it (its own memory store), and its audit. */
  async function throughGateway<T>(
    script: FakeChatScript,
    options: Omit<GatewayOptions, 'upstream' | 'audit'>,
    run: (setup: { provider: FakeOpenAIChat; baseUrl: string; audit: MemoryAuditSink }) => Promise<T>,
  ) {
    return withProvider(script, async (provider) => {
      const audit = memoryAuditSink();
      const gateway = createGateway({ upstream: { url: provider.url }, audit, ...options });
      const { url } = await gateway.listen({ port: 0 });
      try {
        return await run({ provider, baseUrl: `${url}/v1`, audit });
      } finally {
        await gateway.close();
      }
    });
  }

  /** The audit records as short lines: `call <tool> <outcome> [code]`, `run <outcome> [reason]`. */
  function auditLines(audit: MemoryAuditSink) {
    return audit.records.map((record) =>
      record.kind === 'run'
        ? `run ${record.outcome} ${record.stopReason ?? ''}`.trim()
        : `call ${record.toolName} ${record.outcome} ${record.code ?? ''}`.trim(),
    );
  }

  it('stops the looping model within three rounds of the round that shows the loop, and the app gets the model final answer', async () => {
    const answer = 'Order A-1 reads PAID, which is neither SUCCESS nor FAILED; please check it by hand.';
    await throughGateway(
      capped(loopingModel({ ...ORDER_LOOP, answer })),
      {},
      async ({ provider, baseUrl, audit }) => {
        const run = await runSpringAiApp({ baseUrl });

        expect(run.status).toBe(0);
        expect(run.summary).toEqual({
          answer,
          finishReason: 'STOP',
          calls: { ...NO_CALLS, queryOrderStatus: 3 },
          error: null,
        });
        // Round 2 repeats round 1 with the same result (the loop shows); round 3 runs with the guard's note
        // beside it; round 4's call is withheld, and the gateway asks the model once more with tools off.
        // Straight to the provider the same app ran the call 40 times in 41 requests.
        const requests = provider.chatRequests();
        expect(requests).toHaveLength(5);
        expect(requests.slice(0, 4).some(toolsOff)).toBe(false);
        expect(requests[4]?.body).toMatchObject({ tool_choice: 'none' });
        expect(auditLines(audit)).toEqual([
          'call queryOrderStatus success',
          'call queryOrderStatus success',
          'call queryOrderStatus success',
          'call queryOrderStatus denied LOOP_DETECTED',
          'run stopped LOOP_DETECTED',
        ]);
      },
    );
  });

  it("holds the gateway's per-tool limit before the app runs a call past it, and the app still answers", async () => {
    // `counted` answers 1, 2, 3, ...: no two rounds alike, so no loop; only the limit stops it.
    const counting: FakeChatScript = (request) =>
      toolsOff(request)
        ? { kind: 'text', text: 'I counted three times.' }
        : { kind: 'tool-calls', calls: [{ name: 'counted', arguments: {} }] };
    await throughGateway(
      capped(counting),
      { limits: { tools: { counted: 3 } } },
      async ({ provider, baseUrl, audit }) => {
        const run = await runSpringAiApp({ baseUrl, prompt: 'Count three times.' });

        expect(run.status).toBe(0);
        expect(run.summary).toEqual({
          answer: 'I counted three times.',
          finishReason: 'STOP',
          calls: { ...NO_CALLS, counted: 3 },
          error: null,
        });
        // Three rounds ran; the fourth answer's call is withheld, and the model answers with tools off.
        expect(provider.chatRequests()).toHaveLength(5);
        expect(auditLines(audit)).toEqual([
          'call counted success',
          'call counted success',
          'call counted success',
          'call counted denied TOOL_CALL_LIMIT',
          'run stopped TOOL_CALL_LIMIT',
        ]);
      },
    );
  });

  it("holds the gateway's total limit over different tools, and the app still answers", async () => {
    let step = 0;
    const distinct: FakeChatScript = (request) =>
      toolsOff(request)
        ? { kind: 'text', text: 'I took the steps I could.' }
        : {
            kind: 'tool-calls',
            calls: [
              { name: 'echo', arguments: { text: `step ${++step}` } },
              { name: 'counted', arguments: {} },
            ],
          };
    await throughGateway(capped(distinct), { limits: { total: 5 } }, async ({ provider, baseUrl, audit }) => {
      const run = await runSpringAiApp({ baseUrl, prompt: 'Take some steps.' });

      expect(run.status).toBe(0);
      expect(run.summary).toEqual({
        answer: 'I took the steps I could.',
        finishReason: 'STOP',
        calls: { ...NO_CALLS, echo: 2, counted: 2 },
        error: null,
      });
      // Two rounds of two calls make four; the third round's two would make six, over five: the gateway
      // withholds that answer's calls whole (Spring AI's own limit would run the fifth and refuse the sixth).
      expect(provider.chatRequests()).toHaveLength(4);
      expect(auditLines(audit)).toEqual([
        'call echo success',
        'call counted success',
        'call echo success',
        'call counted success',
        'call echo denied TOOL_CALL_LIMIT',
        'call counted denied TOOL_CALL_LIMIT',
        'run stopped TOOL_CALL_LIMIT',
      ]);
    });
  });

  it("never lets the secrets in a tool's result reach the provider; the app's tool ran and it answered", async () => {
    const script = scripted(
      { kind: 'tool-calls', calls: [{ name: 'readDeploymentConfig', arguments: {} }] },
      { kind: 'text', text: 'The order service runs in eu-west-1.' },
    );
    await throughGateway(script, {}, async ({ provider, baseUrl }) => {
      const run = await runSpringAiApp({ baseUrl, prompt: 'Where does the order service run?' });

      expect(run.status).toBe(0);
      expect(run.summary).toEqual({
        answer: 'The order service runs in eu-west-1.',
        finishReason: 'STOP',
        calls: { ...NO_CALLS, readDeploymentConfig: 1 },
        error: null,
      });
      const requests = provider.chatRequests();
      expect(requests).toHaveLength(2);
      for (const request of requests) {
        for (const secret of SPRING_AI_APP_SECRETS) expect(request.text).not.toContain(secret);
      }
      // The rest of the result reaches the model as the tool returned it.
      const sent = toolMessages(requests[1])[0]?.content;
      expect(JSON.parse(String(sent))).toMatchObject({ region: 'eu-west-1' });
    });
  });
});
