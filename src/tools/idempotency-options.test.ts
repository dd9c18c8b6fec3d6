import { describe, expect, it } from 'vitest';
import { createToolRuntime, resolvedRuntime } from '../chain/runtime.js';
import { DEFAULT_IDEMPOTENCY_MODE, DEFAULT_IDEMPOTENCY_TTL_MS } from '../core/defaults.js';
import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import { defineTool } from './define-tool.js';

const base = { name: 'charge', description: 'Charges an order.', execute: () => 1 } as const;

describe('defineTool({ idempotency })', () => {
  it('gives every write tool the default setting, a read tool none, and false opts a write out', () => {
    expect(defineTool({ ...base, effect: 'write' }).idempotency).toEqual({
      key: undefined,
      mode: DEFAULT_IDEMPOTENCY_MODE,
      ttlMs: DEFAULT_IDEMPOTENCY_TTL_MS,
      leaseMs: undefined,
    });
    expect(DEFAULT_IDEMPOTENCY_MODE).toBe('at-most-once');
    expect(DEFAULT_IDEMPOTENCY_TTL_MS).toBe(24 * 60 * 60 * 1000);
    expect(defineTool({ ...base, effect: 'read' }).idempotency).toBeUndefined();
    expect(defineTool({ ...base, effect: 'write', idempotency: false }).idempotency).toBeUndefined();
    expect(defineTool({ ...base, effect: 'read', idempotency: false }).idempotency).toBeUndefined();
  });

  it('keeps a checked, frozen copy of the options given', () => {
    const key = (args: { order: string }) => args.order;
    const options = { key, mode: 'at-most-once', ttlMs: 60_000, leaseMs: 5_000 } as const;
    const tool = defineTool({ ...base, effect: 'write', idempotency: options });
    expect(tool.idempotency).toEqual(options);
    expect(tool.idempotency).not.toBe(options);
    expect(Object.isFrozen(tool.idempotency)).toBe(true);
  });

  it.each([
    ['a string', 'yes', 'idempotency must be false or { key?, mode?, ttlMs?, leaseMs? }'],
    ['true', true, 'idempotency must be false or'],
    ['an array', [], 'idempotency must be false or'],
    ['null', null, 'idempotency must be false or'],
    ['a key that is not a function', { key: 'order' }, 'idempotency.key must be a function'],
    [
      'an unknown mode',
      { mode: 'exactly-once' },
      "idempotency.mode must be 'at-least-once' or 'at-most-once'",
    ],
    ['a ttl of 0', { ttlMs: 0 }, 'idempotency.ttlMs must be an integer >= 1, got 0'],
    ['a ttl as a string', { ttlMs: '60000' }, 'idempotency.ttlMs must be an integer'],
    ['a lease of NaN', { leaseMs: Number.NaN }, 'idempotency.leaseMs must be an integer'],
    ['an unknown option', { ttl: 5 }, 'idempotency has unknown options: ttl'],
  ])('refuses %s with a ToolDefinitionError saying what to fix', (_what, idempotency, message) => {
    const define = () => defineTool({ ...base, effect: 'write', idempotency: idempotency as never });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(message);
  });

  it('refuses options on a read tool: identical reads already share one execution', () => {
    expect(() => defineTool({ ...base, effect: 'read', idempotency: {} })).toThrow(
      "idempotency applies to write tools only (effect 'write')",
    );
  });

  it('refuses retries on an at-most-once tool, and the policy never retries one (the default)', () => {
    expect(() =>
      defineTool({ ...base, effect: 'write', retries: 2, idempotency: { mode: 'at-most-once' } }),
    ).toThrow('an at-most-once tool is never retried');
    const once = defineTool({ ...base, effect: 'write' });
    const least = defineTool({
      ...base,
      name: 'other',
      effect: 'write',
      idempotency: { mode: 'at-least-once' },
    });
    const free = defineTool({ ...base, name: 'free', effect: 'write', idempotency: false });
    const { policy } = resolvedRuntime(
      createToolRuntime({ tools: [once, least, free], retry: { writeRetries: 3 } }),
    );
    expect(policy.retriesFor(once)).toBe(0);
    expect(policy.retriesFor(least)).toBe(3);
    expect(policy.retriesFor(free)).toBe(3);
  });

  it('makes a write tool that sets retries at least once: it said a failed attempt may run again', () => {
    expect(defineTool({ ...base, effect: 'write', retries: 2 }).idempotency?.mode).toBe('at-least-once');
    expect(defineTool({ ...base, effect: 'write', retries: 2, idempotency: {} }).idempotency?.mode).toBe(
      'at-least-once',
    );
    expect(defineTool({ ...base, effect: 'write', retries: 0 }).idempotency?.mode).toBe('at-most-once');
  });
});
