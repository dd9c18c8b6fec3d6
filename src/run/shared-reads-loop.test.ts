import { describe, expect, it } from 'vitest';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';

const USER: readonly Message[] = [{ role: 'user', content: 'What does X-1 cost?' }];

describe('runToolLoop: identical read calls in one response', () => {
  it('run once; the history answers every call and the outcome keeps every result', async () => {
    let executions = 0;
    const getPrice = defineTool({
      name: 'getPrice',
      description: 'The price of one article.',
      effect: 'read',
      execute: ({ sku }: { sku: string }) => {
        executions++;
        return { sku, price: 12.5 };
      },
    });
    const call = { name: 'getPrice', arguments: { sku: 'X-1' } };
    const model = new ScriptedModel({
      script: [assistantWithCalls([call, call, call]), { role: 'assistant', content: '12.50' }],
    });
    const recorder = recordEvents();
    const outcome = await runToolLoop({
      model,
      messages: USER,
      tools: [getPrice],
      onEvent: recorder.listener,
      guard: false,
    });
    expect(outcome).toMatchObject({ type: 'completed', text: '12.50' });
    expect(executions).toBe(1);
    const answers = outcome.messages.filter((m) => m.role === 'tool');
    expect(answers.map((m) => m.role === 'tool' && [m.toolCallId, m.content])).toEqual([
      ['call_1', '{"price":12.5,"sku":"X-1"}'],
      ['call_2', '{"price":12.5,"sku":"X-1"}'],
      ['call_3', '{"price":12.5,"sku":"X-1"}'],
    ]);
    expect(outcome.toolResults.map((r) => r.sharedWith)).toEqual([undefined, 'call_1', 'call_1']);
    expect(outcome.state.toolCalls).toBe(3);
    expect(recorder.ofType('tool-call-end').map((e) => e.sharedWith)).toEqual([
      undefined,
      'call_1',
      'call_1',
    ]);
  });
});
