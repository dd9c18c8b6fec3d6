import { describe, expect, it, vi } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import type { Message } from '../core/message.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool, type ToolDefinition } from '../tools/define-tool.js';
import type { ShowErrorMessages } from './show-error-messages.js';

class StockError extends Error {
  override readonly name = 'StockError';
}

const SECRET = 'postgres://app:S3cr3t@db.internal:5432/shop';
const user: Message = { role: 'user', content: 'go' };

function thrower(thrown: unknown, settings: Partial<ToolDefinition<unknown, unknown>> = {}) {
  return defineTool({
    name: 'reserve',
    description: 'd',
    effect: 'read',
    retries: 0,
    ...settings,
    execute: () => {
      throw thrown;
    },
  });
}

async function contentOf(
  thrown: unknown,
  { tool, policy }: { tool?: ShowErrorMessages; policy?: ShowErrorMessages } = {},
): Promise<string> {
  const runtime = createToolRuntime({
    tools: [thrower(thrown, tool === undefined ? {} : { showErrorMessages: tool })],
    ...(policy === undefined ? {} : { showErrorMessages: policy }),
  });
  const outcome = await runtime.executeToolCall({ name: 'reserve' });
  return outcome.type === 'answered' ? outcome.content : '';
}

const stock = () => new StockError(`Only 2 left in warehouse ${SECRET}`);

describe('showErrorMessages: opening errors of unknown provenance', () => {
  it('is closed by default', async () => {
    expect(await contentOf(stock())).toMatch(
      /^TOOL_ERROR: Tool 'reserve' failed; its error text is withheld\./,
    );
  });

  it('opens every error of a tool with true on the tool, and of every tool with true on the policy; redaction applies', async () => {
    for (const where of [{ tool: true }, { policy: true }]) {
      const content = await contentOf(stock(), where);
      expect(content.startsWith('TOOL_ERROR: Only 2 left in warehouse ')).toBe(true);
      expect(content).not.toContain('S3cr3t');
    }
  });

  it("lets the tool's own setting win over the policy's", async () => {
    expect(await contentOf(stock(), { tool: false, policy: true })).toMatch(/withheld/);
    expect(await contentOf(stock(), { tool: true, policy: false })).toMatch(/^TOOL_ERROR: Only 2 left/);
  });

  it('opens an error class with a function; only exactly true opens', async () => {
    const isStock = (error: unknown) => error instanceof StockError;
    expect(await contentOf(stock(), { policy: isStock })).toMatch(/^TOOL_ERROR: Only 2 left/);
    expect(await contentOf(new Error('driver text'), { policy: isStock })).toMatch(/withheld/);
    for (const truthy of [1, 'yes', {}, Promise.resolve(true)]) {
      expect(await contentOf(stock(), { policy: () => truthy as unknown as boolean })).toMatch(/withheld/);
    }
  });

  it('opened, shows a thrown string; a throwable with nothing readable gets the withheld hint', async () => {
    expect(await contentOf('out of stock', { tool: true })).toBe('TOOL_ERROR: out of stock');
    const unreadable = Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw new Error(SECRET);
      },
    });
    for (const thrown of [Symbol(SECRET), 10n ** 30n, null, { message: 42 }, unreadable]) {
      const content = await contentOf(thrown, { tool: true });
      expect(content).toMatch(/^TOOL_ERROR: Tool 'reserve' failed; its error text is withheld\./);
      expect(content).not.toContain('S3cr3t');
    }
  });

  it('opens a transient driver error: its text follows the hint', async () => {
    const refused = Object.assign(new Error('upstream 503 from inventory'), { status: 503 });
    expect(await contentOf(refused, { tool: true })).toBe(
      "TOOL_UNAVAILABLE: Tool 'reserve' is temporarily unavailable (tried 1 time). Try again later or continue without it. The tool said: upstream 503 from inventory",
    );
  });

  it('never opens a denied or fatal failure, and is not asked for them nor for text written for the model', async () => {
    const asked = vi.fn(() => true);
    expect(
      await contentOf(new PermissionDeniedError({ message: 'user 7 is not admin' }), { policy: asked }),
    ).toBe('PERMISSION_DENIED: This action is not permitted; do not repeat this call.');
    expect(await contentOf(new TypeError('x is undefined'), { policy: asked })).toMatch(/^INTERNAL_ERROR: /);
    expect(await contentOf(new ToolInputError({ message: 'Pick a later date.' }), { policy: asked })).toBe(
      'TOOL_ERROR: Pick a later date.',
    );
    expect(asked).not.toHaveBeenCalled();
  });

  it('a function that throws opens nothing and fails the execution as a callback failure', async () => {
    const runtime = createToolRuntime({
      tools: [thrower(stock())],
      showErrorMessages: () => {
        throw new Error('predicate bug');
      },
    });
    const failed = runtime.executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'reserve' }]),
    });
    await expect(failed).rejects.toBeInstanceOf(CallbackError);
    await expect(failed).rejects.toMatchObject({ callback: 'showErrorMessages' });
    const loop = runToolLoop({
      model: new ScriptedModel({ script: [assistantWithCalls([{ name: 'reserve' }])] }),
      runtime,
      messages: [user],
    });
    await expect(loop).rejects.toMatchObject({ code: 'CALLBACK_FAILED', callback: 'showErrorMessages' });
  });

  it.each([
    ['a string', 'yes', '"yes"'],
    ['a number', 1, '1'],
    ['null', null, 'null'],
    ['an object', { show: true }, 'an object'],
  ])('refuses %s with a clear error, on the tool and on the policy', (_name, value, shown) => {
    expect(() => thrower(1, { showErrorMessages: value as unknown as boolean })).toThrow(ToolDefinitionError);
    expect(() => thrower(1, { showErrorMessages: value as unknown as boolean })).toThrow(
      `Tool "reserve": showErrorMessages must be true, false or a function, got ${shown}.`,
    );
    const policy = () => createToolRuntime({ tools: [], showErrorMessages: value as unknown as boolean });
    expect(policy).toThrow(InvalidOptionsError);
    expect(policy).toThrow(expect.objectContaining({ option: 'showErrorMessages' }));
  });
});
