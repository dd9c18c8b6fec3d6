import { ToolInputError } from '../../src/core/errors/tool-input-error.js';
import { TransientToolError } from '../../src/core/errors/transient-tool-error.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** Executions that fail before the service recovers. */
export const TRANSIENT_FAILURES = 2;

/** getExchangeRate failing transiently `failures` times (no retry by the chain), then answering. */
function exchangeRateTool(failures: number) {
  let executions = 0;
  return defineTool({
    name: 'getExchangeRate',
    description: 'The current exchange rate between two currencies.',
    input: stringInput('from', 'to'),
    effect: 'read',
    retries: 0,
    execute: ({ from, to }: { from: string; to: string }) => {
      if (++executions <= failures) throw new TransientToolError({ message: 'rates service returned 503' });
      return { from, to, rate: 1.0842 };
    },
  });
}

/** A model that calls getExchangeRate until it answers without an error. */
const rateModel = () =>
  createAgentModel({
    decide: ({ lastTool }) => {
      if (lastTool !== undefined && !lastTool.isError) return { answer: '1 EUR is 1.0842 USD right now.' };
      return { calls: [{ name: 'getExchangeRate', arguments: { from: 'EUR', to: 'USD' } }] };
    },
    lastWords: 'The rates service is unavailable right now.',
  });

const rateRequest = [{ role: 'user', content: 'How many dollars is one euro?' }] as const;

function createEventTool() {
  return defineTool({
    name: 'createEvent',
    description: 'Creates a calendar event on a date (YYYY-MM-DD).',
    input: {
      type: 'object',
      properties: { title: { type: 'string' }, date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } },
      required: ['title', 'date'],
      additionalProperties: false,
    },
    effect: 'write',
    execute: ({ date }: { date: string }) => ({ eventId: 'ev-1', date }),
  });
}

/** A model that sends `attempts` in order, one per round, and answers once a result is not an error. */
function attemptsModel(name: string, attempts: readonly unknown[], answer: string) {
  return createAgentModel({
    decide: ({ lastTool, toolMessages }) => {
      if (lastTool !== undefined && !lastTool.isError) return { answer };
      const args = attempts[Math.min(toolMessages.length, attempts.length - 1)];
      return { calls: [{ name, arguments: args }] };
    },
    lastWords: 'I could not complete the request.',
  });
}

export const retryScenarios: readonly ScenarioSpec[] = [
  {
    family: 'retry',
    name: 'transient failure, then success',
    description: 'getExchangeRate fails transiently twice (retries: 0), the model re-calls it, it answers',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: rateModel(),
      tools: [exchangeRateTool(TRANSIENT_FAILURES)],
      messages: rateRequest,
    }),
  },
  {
    family: 'retry',
    name: 'invalid date, then fixed',
    description: 'createEvent({date:"next friday"}) is INVALID_ARGUMENTS; the model sends 2025-03-14',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const attempts = [
        { title: 'Review', date: 'next friday' },
        { title: 'Review', date: '2025-03-14' },
      ];
      return {
        model: attemptsModel('createEvent', attempts, 'The review is booked on 2025-03-14.'),
        tools: [createEventTool()],
        messages: [{ role: 'user', content: 'Put the review in my calendar next Friday.' }],
      };
    },
  },
  {
    family: 'retry',
    name: 'two different invalid attempts, then fixed',
    description: 'bookTable: partySize "four" (type), then time "7pm" (pattern), then a valid call',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'bookTable',
        description: 'Books a table: party size 1-12, time HH:MM.',
        input: {
          type: 'object',
          properties: {
            restaurant: { type: 'string' },
            partySize: { type: 'integer', minimum: 1, maximum: 12 },
            time: { type: 'string', pattern: '^\\d{2}:\\d{2}$' },
          },
          required: ['restaurant', 'partySize', 'time'],
          additionalProperties: false,
        },
        effect: 'write',
        execute: () => ({ bookingId: 'tbl-12' }),
      });
      const attempts = [
        { restaurant: 'Nora', partySize: 'four', time: '19:00' },
        { restaurant: 'Nora', partySize: 4, time: '7pm' },
        { restaurant: 'Nora', partySize: 4, time: '19:00' },
      ];
      return {
        model: attemptsModel('bookTable', attempts, 'Your table at Nora for 4 at 19:00 is booked.'),
        tools: [tool],
        messages: [{ role: 'user', content: 'Book Nora for four at 7pm.' }],
      };
    },
  },
  {
    family: 'retry',
    name: 'business rule, then other arguments',
    description: 'transferFunds from acc-1 is refused (insufficient funds, TOOL_ERROR); from acc-2 it goes',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'transferFunds',
        description: 'Transfers an amount between two accounts of the user.',
        input: {
          type: 'object',
          properties: { from: { type: 'string' }, to: { type: 'string' }, amountEur: { type: 'number' } },
          required: ['from', 'to', 'amountEur'],
          additionalProperties: false,
        },
        effect: 'write',
        execute: ({ from }: { from: string }) => {
          if (from === 'acc-1')
            throw new ToolInputError({ message: 'insufficient funds in acc-1 (acc-2 holds 900)' });
          return { transferId: 'tr-5', status: 'booked' };
        },
      });
      const attempts = [
        { from: 'acc-1', to: 'acc-3', amountEur: 400 },
        { from: 'acc-2', to: 'acc-3', amountEur: 400 },
      ];
      return {
        model: attemptsModel('transferFunds', attempts, '400 EUR went from acc-2 to acc-3.'),
        tools: [tool],
        messages: [{ role: 'user', content: 'Move 400 EUR to acc-3, from whichever account has it.' }],
      };
    },
  },
  {
    family: 'retry',
    name: 'the same invalid call again and again',
    description: 'createEvent({date:"next friday"}) every round: the model never reads the error',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      const attempts = [{ title: 'Review', date: 'next friday' }];
      return {
        model: attemptsModel('createEvent', attempts, 'The review is booked.'),
        tools: [createEventTool()],
        messages: [{ role: 'user', content: 'Put the review in my calendar next Friday.' }],
      };
    },
  },
  {
    family: 'retry',
    name: 'a service that stays down',
    description: 'getExchangeRate fails transiently every time; the model keeps calling it',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'still-unavailable',
    evidentAt: 2,
    build: () => ({
      model: rateModel(),
      tools: [exchangeRateTool(Number.POSITIVE_INFINITY)],
      messages: rateRequest,
    }),
  },
];
