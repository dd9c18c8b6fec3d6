import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from './define-tool.js';
import { EFFECT_RULES, effectRules, mayChangeWorld, TOOL_EFFECTS, type ToolEffect } from './tool-effect.js';

/** A tool of `effect` that fails transiently on its first run, then answers its run number. */
function flaky(effect: ToolEffect) {
  const runs: number[] = [];
  const tool = defineTool({
    name: 'act',
    description: 'Does something.',
    effect,
    execute: async () => {
      runs.push(runs.length + 1);
      if (runs.length === 1) throw new TransientToolError({ message: 'connection reset' });
      return { run: runs.length };
    },
  });
  return { tool, runs };
}

const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 } };
const user = { role: 'user', content: 'go' } as const;

describe('the effects table: what each effect implies, in the chain', () => {
  it.each([
    ['read', [1, 2]],
    ['idempotent-write', [1, 2]],
    ['write', [1]],
    ['unknown', [1]],
  ] as const)('%s after a transient failure: runs %j', async (effect, expected) => {
    const { tool, runs } = flaky(effect);
    const runtime = createToolRuntime({ tools: [tool], ...fast });
    await runtime.executeToolCall({ name: 'act', arguments: {} });
    expect(runs).toEqual(expected);
  });

  it('an unknown effect is never retried, whatever the policy says', async () => {
    const { tool, runs } = flaky('unknown');
    const runtime = createToolRuntime({
      tools: [tool],
      retry: { readRetries: 5, writeRetries: 5, ...fast.retry },
    });
    await runtime.executeToolCall({ name: 'act', arguments: {} });
    expect(runs).toEqual([1]);
    const retried = {
      name: 'act',
      description: 'd',
      effect: 'unknown',
      retries: 1,
      execute: () => 1,
    } as const;
    expect(() => defineTool(retried)).toThrow(/unknown effect is never retried/);
  });

  it.each([
    ['read', 1],
    ['idempotent-write', 2],
    ['write', 1],
    ['unknown', 2],
  ] as const)('%s: two identical calls of one session run %i time(s)', async (effect, times) => {
    let runs = 0;
    const tool = defineTool({ name: 'act', description: 'd', effect, execute: () => ({ run: ++runs }) });
    const runtime = createToolRuntime({ tools: [tool] });
    const response = assistantWithCalls([{ name: 'act' }, { name: 'act' }]);
    await runtime.executeToolCalls({ messages: [user], response, sessionId: 's1' });
    expect(runs).toBe(times);
  });

  it('only a write takes an idempotency setting: a record answers nothing else', () => {
    for (const effect of TOOL_EFFECTS) {
      const define = () =>
        defineTool({ name: 'act', description: 'd', effect, execute: () => 1, idempotency: { ttlMs: 1000 } });
      if (effect === 'write') expect(define).not.toThrow();
      else expect(define).toThrow(/idempotency applies to write tools only/);
    }
  });

  it('everything but a read may change the world; an effect the table does not know is unknown', () => {
    expect(TOOL_EFFECTS.filter((effect) => mayChangeWorld(effect))).toEqual([
      'write',
      'idempotent-write',
      'unknown',
    ]);
    expect(effectRules('delete' as ToolEffect)).toBe(EFFECT_RULES.unknown);
    expect(effectRules('__proto__' as ToolEffect)).toBe(EFFECT_RULES.unknown);
    expect(Object.isFrozen(EFFECT_RULES.read)).toBe(true);
  });
});
