import { describe, expect, it } from 'vitest';
import type { Message } from '../core/message.js';
import type { ToolEvent } from '../core/tool-event.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { createReferenceTools } from './__fixtures__/reference-tools.js';
import { argumentsDigest } from './arguments-digest.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

describe('developer events', () => {
  it('reports start and end of a successful call with a duration from the injected clock', async () => {
    const { tools } = createReferenceTools();
    const recorder = recordEvents();
    let clock = 0;
    await createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'echo', arguments: { text: 'hi' }, id: 'abc' }]),
      onEvent: recorder.listener,
      now: () => (clock += 5),
    });
    expect(recorder.events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end']);
    expect(recorder.ofType('tool-call-end')[0]).toEqual({
      type: 'tool-call-end',
      toolName: 'echo',
      toolCallId: 'abc',
      argumentsSummary: '{"text":"hi"}',
      outcome: 'success',
      identity: expect.objectContaining({ digest: argumentsDigest('echo', '{"text":"hi"}') }),
      durationMs: 5,
      attempts: 1,
    });
  });

  it("carries the call's identity on tool-call-end: its digest on first read, nothing else in a log", async () => {
    const { tools } = createReferenceTools();
    const ends: ToolEvent[] = [];
    await createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'echo', arguments: '{ "text": "hunter2" }', id: 'abc' }]),
      onEvent: (event) => {
        if (event.type === 'tool-call-end') ends.push(event);
      },
    });
    const [end] = ends;
    if (end?.type !== 'tool-call-end') throw new Error('no tool-call-end');
    expect(end.identity.digest).toBe(argumentsDigest('echo', '{"text":"hunter2"}'));
    const logged = JSON.stringify(end.identity);
    expect(JSON.parse(logged)).toEqual({ digest: end.identity.digest });
    expect(logged).not.toContain('hunter2');
    expect(Object.keys(end.identity)).toEqual([]);
  });

  it('keeps the original error for developers who include content, while the model sees a redacted one', async () => {
    const { tools } = createReferenceTools();
    const recorder = recordEvents();
    const result = await createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([
        { name: 'leaky', arguments: { password: 'hunter2', note: 'x'.repeat(1000) } },
      ]),
      onEvent: recorder.listener,
      includeContent: true,
    });
    const [error] = recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success');
    expect(error).toMatchObject({
      toolName: 'leaky',
      code: 'TOOL_ERROR',
      outcome: 'invalid-input',
      attempts: 1,
    });
    expect((error?.error as Error | undefined)?.message).toContain('s3cr3t-pass');
    expect(result.messages[2]?.content).not.toContain('s3cr3t-pass');
    expect(error?.argumentsSummary).not.toContain('hunter2');
    expect(error?.argumentsSummary.length).toBeLessThanOrEqual(200);
    expect(recorder.ofType('tool-call-end')[0]).toMatchObject({
      outcome: 'invalid-input',
      code: 'TOOL_ERROR',
    });
  });

  it('carries only the kind of an error unless content is included', async () => {
    const { tools } = createReferenceTools();
    const recorder = recordEvents();
    await createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'leaky', arguments: {} }]),
      onEvent: recorder.listener,
    });
    const [error] = recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success');
    expect(error).toMatchObject({ code: 'TOOL_ERROR', errorType: 'Error' });
    expect(error).not.toHaveProperty('error');
    expect(JSON.stringify(recorder.events)).not.toContain('s3cr3t-pass');
  });

  it('gives each execution its own listener', async () => {
    const { tools } = createReferenceTools();
    const runtime = createToolRuntime({ tools });
    const first = recordEvents();
    const second = recordEvents();
    const response = assistantWithCalls([{ name: 'echo', arguments: { text: 'a' } }]);
    await Promise.all([
      runtime.executeToolCalls({ messages: [user], response, onEvent: first.listener }),
      runtime.executeToolCalls({ messages: [user], response, onEvent: second.listener }),
      runtime.executeToolCalls({ messages: [user], response }),
    ]);
    expect(first.events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end']);
    expect(second.events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end']);
  });

  it('reports refused calls too, so every start has an end', async () => {
    const { tools } = createReferenceTools();
    const recorder = recordEvents();
    await createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([
        { name: 'nope' },
        { name: 'addNumbers', arguments: '{' },
        { name: 'echo', arguments: { text: 'a' } },
      ]),
      onEvent: recorder.listener,
    });
    expect(recorder.ofType('tool-call-start')).toHaveLength(3);
    expect(recorder.ofType('tool-call-end').map((e) => e.code ?? e.outcome)).toEqual([
      'UNKNOWN_TOOL',
      'INVALID_JSON',
      'success',
    ]);
  });
});
