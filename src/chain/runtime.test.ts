import { describe, expect, it } from 'vitest';
import { CallbackError } from '../core/errors/callback-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { UnknownToolError } from '../core/errors/unknown-tool-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { createReferenceTools } from './__fixtures__/reference-tools.js';
import { argumentsDigest } from './arguments-digest.js';
import { countTurnCalls, emptyTurnCounts } from './limits.js';
import { createToolRuntime, resolvedRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

describe('createToolRuntime', () => {
  it('checks the policy once, at creation', () => {
    expect(() => createToolRuntime({ tools: [], timeoutMs: 0 })).toThrow(InvalidOptionsError);
    const runtime = createToolRuntime({ tools: createReferenceTools().tools, limits: { total: 7 } });
    expect(resolvedRuntime(runtime).policy.limits.totalFor(500)).toBe(7);
    expect(runtime.tools.names()).toContain('echo');
    expect(Object.isFrozen(runtime)).toBe(true);
  });

  it('takes decisions as an object of call id to decision, not a Map', async () => {
    const { tools } = createReferenceTools();
    const runtime = createToolRuntime({ tools });
    const response = assistantWithCalls([{ name: 'echo', arguments: { text: 'a' } }]);
    const refused = runtime.executeToolCalls({
      messages: [user],
      response,
      decisions: new Map([['call_1', 'run']]) as never,
    });
    await expect(refused).rejects.toThrow(InvalidOptionsError);
  });
});

describe('executeToolCall: one call, no history', () => {
  it('answers with the structured result an MCP proxy needs', async () => {
    const { tools } = createReferenceTools();
    const runtime = createToolRuntime({ tools });
    const success = await runtime.executeToolCall({ id: 'm1', name: 'echo', arguments: { text: 'hi' } });
    expect(success).toEqual({
      type: 'answered',
      toolCallId: 'm1',
      toolName: 'echo',
      isError: false,
      content: '"HI"',
      value: 'HI',
      result: expect.objectContaining({ type: 'success', attempts: 1 }),
    });
    const invalid = await runtime.executeToolCall({ name: 'addNumbers', arguments: '{"a": "x"}' });
    expect(invalid).toMatchObject({
      type: 'answered',
      isError: true,
      code: 'INVALID_ARGUMENTS',
      errorClass: 'invalid-input',
    });
    expect(invalid.toolCallId).toMatch(/^tw_[0-9a-f-]{36}$/);
  });

  it('answers a fatal failure as data, and has the free form too', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'd',
      effect: 'read',
      execute: () => {
        throw new TypeError('bug');
      },
    });
    const outcome = await createToolRuntime({ tools: [broken] }).executeToolCall({ name: 'broken' });
    expect(outcome).toMatchObject({ isError: true, code: 'INTERNAL_ERROR', errorClass: 'fatal' });
  });

  it('applies no turn limits without counts, and the given counts when there are', async () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      effect: 'read',
      maxCallsPerTurn: 1,
      execute: () => 1,
    });
    const runtime = createToolRuntime({ tools: [tool] });
    for (let i = 0; i < 3; i++) {
      expect(await runtime.executeToolCall({ name: 't' })).toMatchObject({ isError: false });
    }
    const counts = emptyTurnCounts();
    expect(await runtime.executeToolCall({ name: 't' }, { counts })).toMatchObject({ isError: false });
    expect(await runtime.executeToolCall({ name: 't' }, { counts })).toMatchObject({
      code: 'TOOL_CALL_LIMIT',
    });
  });

  it('reports an interruption, and runs the call on a later decision', async () => {
    let ran = 0;
    const tool = defineTool({
      name: 'pay',
      description: 'd',
      effect: 'write',
      decide: () => ({ type: 'ask', reason: 'approve?' }),
      execute: () => ++ran,
    });
    const runtime = createToolRuntime({ tools: [tool] });
    const first = await runtime.executeToolCall({ id: 'p1', name: 'pay', arguments: '{}' });
    expect(first).toEqual({
      type: 'interrupted',
      toolCallId: 'p1',
      toolName: 'pay',
      pending: {
        toolCallId: 'p1',
        toolName: 'pay',
        arguments: '{}',
        argumentsSummary: '{}',
        argumentsDigest: argumentsDigest('pay', '{}'),
        reason: 'approve?',
      },
    });
    expect(ran).toBe(0);
    const second = await runtime.executeToolCall(
      { id: 'p1', name: 'pay', arguments: '{}' },
      { decisions: { p1: 'run' } },
    );
    expect(second).toMatchObject({ type: 'answered', content: '1' });
  });

  it('throws what the caller must fix: an abort (its reason), a failed callback, an unknown tool under throw', async () => {
    const tool = defineTool({ name: 't', description: 'd', effect: 'read', execute: () => 1 });
    const runtime = createToolRuntime({ tools: [tool] });
    const reason = new Error('cancelled');
    await expect(runtime.executeToolCall({ name: 't' }, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    const hooked = createToolRuntime({
      tools: [tool],
      decide: () => {
        throw new Error('down');
      },
    });
    await expect(hooked.executeToolCall({ name: 't' })).rejects.toThrow(CallbackError);
    const strict = createToolRuntime({ tools: [tool], unknownTool: 'throw' });
    await expect(strict.executeToolCall({ name: 'nope' })).rejects.toThrow(UnknownToolError);
  });

  it('gives the events of this call to this call’s listener', async () => {
    const { tools } = createReferenceTools();
    const recorder = recordEvents();
    await createToolRuntime({ tools }).executeToolCall({ name: 'echo' }, { onEvent: recorder.listener });
    expect(recorder.events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end']);
  });
});

describe('turn counts over a growing history', () => {
  it('counts a handed-back history (and what was appended to it) exactly as a full count would', async () => {
    const { tools } = createReferenceTools();
    const runtime = createToolRuntime({
      tools,
      limits: { perTool: 6, exclude: ['noArgs'] },
      onLimitExceeded: 'feedback',
    });
    const script = [
      [{ name: 'counted' }, { name: 'addNumbers', arguments: '{' }],
      [{ name: 'noArgs' }, { name: 'missing' }],
      [{ name: 'counted' }, { name: 'counted' }, { name: 'echo', arguments: { text: 'a' } }],
      [{ name: 'counted' }, { name: 'counted' }, { name: 'counted' }, { name: 'counted' }],
      [{ name: 'counted' }],
    ];
    let messages: Message[] = [user];
    for (const [round, calls] of script.entries()) {
      const result = await runtime.executeToolCalls({ messages, response: assistantWithCalls(calls) });
      // Alternate: hand the returned array back as it is, or append to it in place.
      messages = result.messages as Message[];
      if (round % 2 === 1) messages.push({ role: 'assistant', content: 'thinking' });
    }
    const codes = messages
      .filter((m) => m.role === 'tool')
      .map((m) => (m.role === 'tool' ? m.errorCode : ''));
    expect(codes.filter((code) => code === 'TOOL_CALL_LIMIT')).toHaveLength(2);
    const full = countTurnCalls(messages, resolvedRuntime(runtime).policy.limits.isExcluded);
    expect(full).toMatchObject({
      total: 8,
      perTool: new Map([
        ['counted', 6],
        ['addNumbers', 1],
        ['echo', 1],
      ]),
    });
  });

  it('starts a new turn at a user message appended to a handed-back history', async () => {
    const { tools, counters } = createReferenceTools();
    const runtime = createToolRuntime({ tools, limits: { perTool: 2 } });
    const first = await runtime.executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'counted' }, { name: 'counted' }]),
    });
    const history = first.messages as Message[];
    history.push(user);
    const second = await runtime.executeToolCalls({
      messages: history,
      response: assistantWithCalls([{ name: 'counted' }, { name: 'counted' }]),
    });
    expect(second.results.every((r) => r.type === 'success')).toBe(true);
    expect(counters.counted).toBe(4);
  });

  it('hands back plain messages: nothing is attached to them, frozen ones are counted alike', async () => {
    const { tools } = createReferenceTools();
    const runtime = createToolRuntime({ tools, limits: { perTool: 2 }, onLimitExceeded: 'feedback' });
    const first = await runtime.executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'counted' }, { name: 'counted' }]),
    });
    for (const message of first.messages) expect(Object.getOwnPropertySymbols(message)).toEqual([]);
    const frozen = first.messages.map((message) => Object.freeze({ ...message }));
    const second = await runtime.executeToolCalls({
      messages: frozen,
      response: assistantWithCalls([{ name: 'counted' }]),
    });
    expect(second.results[0]).toMatchObject({ code: 'TOOL_CALL_LIMIT' });
  });
});
