// The gateway in front of a fake OpenAI chat provider, driven by the AI SDK's own loop: `generateText` and
// `streamText` over `@ai-sdk/openai-compatible`, tools from `ai`. The app's one change is the base URL.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type FakeOpenAIChat,
  loopingModel,
  startFakeOpenAIChat,
  toolsOff,
} from '../../../test/fake-providers/openai-chat-provider.js';
import { createGateway, type Gateway } from './index.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setUp(): Promise<{ provider: FakeOpenAIChat; gateway: Gateway; url: string }> {
  const provider = await startFakeOpenAIChat({
    script: loopingModel({ tool: 'getStatus', arguments: { id: 'A-1' }, answer: 'A-1 is still pending.' }),
  });
  open.push(provider);
  const gateway = createGateway({ upstream: { url: provider.url } });
  open.push(gateway);
  const { url } = await gateway.listen({ port: 0 });
  return { provider, gateway, url };
}

function app(baseURL: string) {
  const executed: string[] = [];
  const model = createOpenAICompatible({
    name: 'shop',
    baseURL,
    apiKey: 'app-key',
    includeUsage: true,
  }).chatModel('fake-model');
  const tools = {
    getStatus: tool({
      description: 'The status of an order',
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        executed.push(id);
        return { state: 'PENDING' };
      },
    }),
  };
  return { model, tools, executed };
}

describe('the gateway under the AI SDK', () => {
  it('generateText: the loop ends on the model’s answer after three executions, not at the step cap', async () => {
    const { provider, url } = await setUp();
    const direct = app(`${provider.url}/v1`);
    const unguarded = await generateText({
      model: direct.model,
      tools: direct.tools,
      prompt: 'Status of A-1?',
      stopWhen: stepCountIs(20),
    });
    expect(unguarded.steps).toHaveLength(20);
    expect(direct.executed).toHaveLength(20);
    expect(unguarded.text).toBe('');

    const guarded = app(`${url}/v1`);
    const result = await generateText({
      model: guarded.model,
      tools: guarded.tools,
      prompt: 'Status of A-1?',
      stopWhen: stepCountIs(20),
    });
    expect(result.steps).toHaveLength(4);
    expect(guarded.executed).toEqual(['A-1', 'A-1', 'A-1']);
    expect(result.text).toBe('A-1 is still pending.');
    expect(result.finishReason).toBe('stop');
    expect(provider.chatRequests().filter(toolsOff)).toHaveLength(1);
  });

  it('streamText: text streams through, the withheld call never reaches the app', async () => {
    const { url } = await setUp();
    const guarded = app(`${url}/v1`);
    const result = streamText({
      model: guarded.model,
      tools: guarded.tools,
      prompt: 'Status of A-1?',
      stopWhen: stepCountIs(20),
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(await result.text).toBe('A-1 is still pending.');
    expect((await result.steps).length).toBe(4);
    expect(guarded.executed).toHaveLength(3);
    expect(parts.filter((type) => type === 'tool-call')).toHaveLength(3);
    expect(parts).not.toContain('error');
  });
});
