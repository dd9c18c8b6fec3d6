import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** A clock for volatile fields: 09:00:00 plus `n` seconds, on a fixed day. */
const clock = (n: number) => new Date(Date.UTC(2025, 0, 6, 9, 0, n)).toISOString();

/**
 * The failure the guard exists for: the description promises `SUCCESS` or `FAILED`, the tool returns
 * `{"code":0,"data":{"state":"PAID"}}`. The model cannot read a verdict, so it asks again, with the same
 * arguments, and gets the same result.
 */
export const contractMismatchScenario: ScenarioSpec = {
  family: 'repeat',
  name: 'contract-mismatch loop',
  description: 'queryOrderStatus promises SUCCESS/FAILED, returns {"code":0,...}; same call, same result',
  kind: 'loop',
  expected: 'LOOP_DETECTED',
  detector: 'exact-repeat',
  evidentAt: 2,
  build() {
    const tool = defineTool({
      name: 'queryOrderStatus',
      description: 'Returns the payment status of an order: SUCCESS or FAILED.',
      input: stringInput('orderId'),
      effect: 'read',
      execute: () => ({ code: 0, data: { state: 'PAID' } }),
    });
    const model = createAgentModel({
      decide: ({ lastTool }) => {
        const verdict = /\b(SUCCESS|FAILED)\b/.exec(lastTool?.content ?? '')?.[1];
        if (verdict !== undefined) return { answer: `Order A-1042: ${verdict}.` };
        return {
          calls: [{ name: 'queryOrderStatus', arguments: { orderId: 'A-1042' } }],
          content: 'Checking whether the payment of order A-1042 succeeded.',
        };
      },
      lastWords: 'I could not get a SUCCESS or FAILED verdict for order A-1042.',
    });
    return {
      model,
      tools: [tool],
      messages: [{ role: 'user', content: 'Did the payment for order A-1042 go through?' }],
    };
  },
};

/** A model that calls `name(args)` every round until the result contains `done`. */
function askUntil(name: string, args: unknown, done: string, answer: string, lastWords: string) {
  return createAgentModel({
    decide: ({ lastTool }) =>
      lastTool?.content.includes(done) === true ? { answer } : { calls: [{ name, arguments: args }] },
    lastWords,
  });
}

export const repeatScenarios: readonly ScenarioSpec[] = [
  contractMismatchScenario,
  {
    family: 'repeat',
    name: 'a volatile clock hides a repeat',
    description:
      'getPaymentStatus answers {"status":"pending","checkedAt":<now>}: a new text, the same answer',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      let calls = 0;
      const tool = defineTool({
        name: 'getPaymentStatus',
        description: 'The status of a payment: pending, settled or failed.',
        input: stringInput('paymentId'),
        effect: 'read',
        execute: () => ({ status: 'pending', checkedAt: clock(++calls) }),
      });
      const model = askUntil(
        'getPaymentStatus',
        { paymentId: 'pay-88' },
        '"status":"settled"',
        'Payment pay-88 is settled.',
        'Payment pay-88 is still pending.',
      );
      return { model, tools: [tool], messages: [{ role: 'user', content: 'Has payment pay-88 settled?' }] };
    },
  },
  {
    family: 'repeat',
    name: 'a volatile field the tool declares',
    description:
      'getQuote answers the same price with a new quoteId, declared loop: { ignoreFields: ["quoteId"] }',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      let quotes = 0;
      const tool = defineTool({
        name: 'getQuote',
        description: 'A price quote for shipping a parcel of the given weight.',
        input: {
          type: 'object',
          properties: { weightKg: { type: 'number' }, to: { type: 'string' } },
          required: ['weightKg', 'to'],
          additionalProperties: false,
        },
        effect: 'read',
        loop: { ignoreFields: ['quoteId'] },
        execute: () => ({ priceEur: 24.5, quoteId: `q-${1000 + ++quotes}` }),
      });
      const model = askUntil(
        'getQuote',
        { weightKg: 2, to: 'NL' },
        '"priceEur":1',
        'Shipping is under 20 EUR.',
        'Shipping a 2 kg parcel to NL costs 24.50 EUR; no cheaper quote came up.',
      );
      const messages = [
        { role: 'user', content: 'Find me a shipping quote under 20 EUR for 2 kg to NL.' },
      ] as const;
      return { model, tools: [tool], messages };
    },
  },
  {
    family: 'repeat',
    name: 'a truncated log that keeps growing',
    description:
      'tailBuildLog is cut at 200 characters; the log grows past the cut, the model sees the same text',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      let reads = 0;
      const head = Array.from({ length: 8 }, (_, i) => `[build 512] step ${i + 1}/20 ok`).join('\n');
      const tool = defineTool({
        name: 'tailBuildLog',
        description: 'The log of a build so far.',
        input: stringInput('buildId'),
        effect: 'read',
        maxResultChars: 200,
        // 200 to 1,000 characters over 20 reads: the marker keeps its width, the model sees one text.
        execute: () => `${head}\n${'[build 512] waiting for a runner\n'.repeat(++reads)}`,
      });
      const model = askUntil(
        'tailBuildLog',
        { buildId: 'b-512' },
        'step 20/20',
        'Build b-512 finished.',
        'Build b-512 is still at step 8 of 20.',
      );
      return { model, tools: [tool], messages: [{ role: 'user', content: 'Has build b-512 finished?' }] };
    },
  },
  {
    family: 'repeat',
    name: 'the same tickets in another order',
    description:
      'listOpenTickets rotates the same 4 tickets every call; the tool declares loop: { unordered: true }',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      let calls = 0;
      const tickets = ['T-1', 'T-2', 'T-3', 'T-4'].map((id) => ({
        id,
        title: `Ticket ${id}`,
        status: 'open',
      }));
      const tool = defineTool({
        name: 'listOpenTickets',
        description: 'The open tickets of a queue, in no particular order.',
        input: stringInput('queue'),
        effect: 'read',
        loop: { unordered: true },
        execute: () => {
          const shift = calls++ % tickets.length;
          return { tickets: [...tickets.slice(shift), ...tickets.slice(0, shift)] };
        },
      });
      const model = askUntil(
        'listOpenTickets',
        { queue: 'billing' },
        '"id":"T-9"',
        'T-9 is in the billing queue.',
        'T-9 has not reached the billing queue.',
      );
      const messages = [
        { role: 'user', content: 'Tell me when ticket T-9 shows up in the billing queue.' },
      ] as const;
      return { model, tools: [tool], messages };
    },
  },
];
