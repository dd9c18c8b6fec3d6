import { generateText, stepCountIs, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { callsOf, scriptedModel, textOf, toolOutputsIn } from './__fixtures__/guard-tools-model.js';
import { guardTools } from './guard-tools.js';
import type { GuardToolsOptions } from './guard-tools-options.js';

// A tool nobody declared is of unknown effect: the guard must not add a retry that plain AI SDK tools do
// not have. The charge goes through and the reply is lost: a retry would charge twice.
const chargeCard = (charges: string[]) =>
  tool({
    description: 'Charge the card on file.',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => {
      charges.push(orderId);
      if (charges.length === 1) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      return { charged: orderId };
    },
  });

async function chargeOnce(options: GuardToolsOptions | undefined) {
  const charges: string[] = [];
  const tools = { chargeCard: chargeCard(charges) };
  const model = scriptedModel((_, index) =>
    index === 0 ? callsOf({ id: 'c1', name: 'chargeCard', input: { orderId: 'A-1' } }) : textOf('Done.'),
  );
  const given = options === undefined ? tools : guardTools(tools, options).tools;
  await generateText({ model, tools: given, prompt: 'Charge order A-1.', stopWhen: stepCountIs(3) });
  return { charges, output: toolOutputsIn(model.doGenerateCalls[1]?.prompt ?? []).get('c1') };
}

describe('guardTools: a tool nobody declared is of unknown effect', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a failing undeclared tool once, as plain AI SDK tools do (no retry after it may have acted)', async () => {
    expect((await chargeOnce(undefined)).charges).toEqual(['A-1']);
    const guarded = await chargeOnce({});
    expect(guarded.charges).toEqual(['A-1']);
    expect(guarded.output).toMatchObject({ type: 'error-text' });
  });

  it('runs a write once too, and retries only a tool named in reads', async () => {
    expect((await chargeOnce({ writes: ['chargeCard'] })).charges).toEqual(['A-1']);
    // The retry delay passes on a fake clock.
    vi.useFakeTimers();
    const reading = chargeOnce({ reads: ['chargeCard'], retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    await vi.advanceTimersByTimeAsync(1);
    const read = await reading;
    expect(read.charges).toEqual(['A-1', 'A-1']);
    expect(read.output).toMatchObject({ type: 'json', value: { charged: 'A-1' } });
  });

  it('refuses a tool named in both lists, and an effect that contradicts its list', () => {
    const tools = { chargeCard: chargeCard([]) };
    expect(() => guardTools(tools, { writes: ['chargeCard'], reads: ['chargeCard'] })).toThrow(
      /reads: names "chargeCard", which writes names too/,
    );
    expect(() =>
      guardTools(tools, { reads: ['chargeCard'], perTool: { chargeCard: { effect: 'write' } } }),
    ).toThrow(/perTool\.chargeCard\.effect.*reads names the tool/);
    expect(() => guardTools(tools, { reads: ['nope'] })).toThrow(/reads\[0\]/);
    expect(() => guardTools(tools, { perTool: { chargeCard: { effect: 'unknown', retries: 2 } } })).toThrow(
      /unknown effect is never retried/,
    );
  });
});
