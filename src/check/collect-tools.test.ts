import { describe, expect, it } from 'vitest';
import { defineTool } from '../tools/define-tool.js';
import { createToolRegistry } from '../tools/tool-registry.js';
import { collectTools, isTool, isToolDefinition } from './collect-tools.js';

const make = (name: string) =>
  defineTool({ name, description: 'd', effect: 'read', execute: () => name, output: { type: 'string' } });
const definitionOf = (name: string) => ({ name, description: 'd', effect: 'read', execute: () => name });

describe('collectTools', () => {
  it('finds tools, definitions, arrays of them, registries and a default object of tools, each once', () => {
    const a = make('a');
    const b = make('b');
    const c = make('c');
    const d = definitionOf('d');
    const e = make('e');
    const { targets, exportNames } = collectTools({
      a,
      list: [b, a, 'noise', null, d],
      registry: createToolRegistry([c]),
      default: { e, notATool: 42 },
      helper: () => 'not a tool',
      config: { name: 'x', retries: 3 },
    });
    // By export name, as Node orders a module namespace: a, default, list, registry.
    expect(targets).toEqual([a, e, b, d, c]);
    expect([...exportNames.values()]).toEqual(['a', 'default.e', 'list[0]', 'list[4]', 'registry[0]']);
  });

  it('orders by export name whatever order the loader gives (a test runner or bundler may not sort)', () => {
    const a = make('a');
    const b = make('b');
    expect(collectTools({ zeta: b, alpha: a }).targets).toEqual([a, b]);
  });

  it('a default export that is itself a tool, or an array, is found', () => {
    const a = make('a');
    expect(collectTools({ default: a }).targets).toEqual([a]);
    expect(collectTools({ default: [a] }).exportNames.get(a)).toBe('default[0]');
  });

  it('lists exports whose getters throw as unreadable, and skips values whose traps throw', () => {
    const a = make('a');
    const namespace: Record<string, unknown> = { a };
    Object.defineProperty(namespace, 'broken', {
      enumerable: true,
      get: () => {
        throw new Error('getter');
      },
    });
    namespace.trap = new Proxy(
      {},
      {
        has: () => {
          throw new Error('has');
        },
        get: () => {
          throw new Error('get');
        },
      },
    );
    const collected = collectTools(namespace);
    expect(collected.targets).toEqual([a]);
    expect(collected.unreadable).toEqual([{ name: 'broken', reason: 'Error: getter' }]);
  });

  it('a revoked Proxy (as the default export, or any export) is unreadable, not a crash', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const a = make('a');
    const collected = collectTools({ a, default: proxy, list: proxy });
    expect(collected.targets).toEqual([a]);
    const reason = "TypeError: Cannot perform 'IsArray' on a proxy that has been revoked";
    expect(collected.unreadable).toEqual([
      { name: 'default', reason },
      { name: 'list', reason },
    ]);
  });

  it('finds nothing in a module without tools', () => {
    expect(collectTools({ answer: 42, f: () => 1 }).targets).toEqual([]);
  });
});

describe('isTool and isToolDefinition', () => {
  it('tell a defined tool from a definition from anything else', () => {
    const tool = make('a');
    expect([isTool(tool), isToolDefinition(tool)]).toEqual([true, false]);
    expect([isTool(definitionOf('a')), isToolDefinition(definitionOf('a'))]).toEqual([false, true]);
    for (const other of [null, 1, 'a', [], {}, { name: 'a' }, { execute: () => 1 }]) {
      expect([isTool(other), isToolDefinition(other)]).toEqual([false, false]);
    }
  });
});
