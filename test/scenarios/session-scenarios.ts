import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** The contract-mismatch tool, for the loop that spans requests. */
function orderStatusTool() {
  return defineTool({
    name: 'queryOrderStatus',
    description: 'Returns the payment status of an order: SUCCESS or FAILED.',
    input: stringInput('orderId'),
    effect: 'read',
    execute: () => ({ code: 0, data: { state: 'PAID' } }),
  });
}

/** The first and the following weeks the availability search looks at, one date per round. */
const WEEK_ONE = ['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13'];
const WEEK_TWO = ['2025-03-17', '2025-03-18', '2025-03-19'];

export const sessionScenarios: readonly ScenarioSpec[] = [
  {
    family: 'session',
    name: 'a loop that spans two requests',
    description: 'queryOrderStatus twice per request, then "ask me again"; the user asks again (one session)',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    // Request 1 is rounds 1-3 (the repeat at round 2); request 2 starts at round 4.
    evidentAt: 2,
    build() {
      const model = createAgentModel({
        decide: ({ round }) =>
          round <= 2
            ? { calls: [{ name: 'queryOrderStatus', arguments: { orderId: 'A-1042' } }] }
            : { answer: 'No verdict yet; ask me again in a minute.' },
        lastWords: 'No verdict for order A-1042.',
      });
      return {
        model,
        tools: [orderStatusTool()],
        messages: [{ role: 'user', content: 'Did order A-1042 get paid?' }],
        followUps: ['And now?'],
        check: ({ requests }) =>
          requests.length === 2 && requests[0]?.type === 'completed'
            ? []
            : ['the first request should complete and the second be stopped'],
      };
    },
  },
  {
    family: 'session',
    name: 'each request re-reads the profile',
    description: 'three requests of one session, each starting with getProfile(c-9) (the same result)',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const getProfile = defineTool({
        name: 'getProfile',
        description: "The customer's profile: name, plan, billing country.",
        input: stringInput('customerId'),
        effect: 'read',
        execute: ({ customerId }: { customerId: string }) => ({ customerId, plan: 'basic', country: 'NL' }),
      });
      const getPlans = defineTool({
        name: 'getPlans',
        description: 'The plans on offer in a country.',
        input: stringInput('country'),
        effect: 'read',
        execute: () => ({
          plans: [
            { plan: 'basic', eur: 5 },
            { plan: 'pro', eur: 12 },
          ],
        }),
      });
      const changePlan = defineTool({
        name: 'changePlan',
        description: "Changes the customer's plan.",
        input: stringInput('customerId', 'plan'),
        effect: 'write',
        execute: () => ({ ok: true, effective: '2025-04-01' }),
      });
      const next: Readonly<Record<number, { name: string; arguments: unknown }>> = {
        2: { name: 'getPlans', arguments: { country: 'NL' } },
        3: { name: 'changePlan', arguments: { customerId: 'c-9', plan: 'pro' } },
      };
      const answers = ['You are on basic.', 'Pro is 12 EUR a month.', 'You are on pro from April 1.'];
      const model = createAgentModel({
        decide: ({ request, round }) => {
          if (round === 1) return { calls: [{ name: 'getProfile', arguments: { customerId: 'c-9' } }] };
          const call = next[request];
          if (round === 2 && call !== undefined) return { calls: [call] };
          return { answer: answers[request - 1] ?? 'Done.' };
        },
        lastWords: 'I could not finish.',
      });
      return {
        model,
        tools: [getProfile, getPlans, changePlan],
        messages: [{ role: 'user', content: 'What plan am I on? (customer c-9)' }],
        followUps: ['What would pro cost me?', 'Switch me to pro.'],
        check: ({ requests }) => (requests.length === 3 ? [] : [`${requests.length} of 3 requests ran`]),
      };
    },
  },
  {
    family: 'session',
    name: 'no stale rounds carried into the next request',
    description: 'request 1 finds all 4 dates taken ({"available":false}); request 2 scans the next week',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'checkAvailability',
        description: 'Whether the meeting room is free on a date (YYYY-MM-DD).',
        input: stringInput('date'),
        effect: 'read',
        execute: ({ date }: { date: string }) =>
          date === '2025-03-19' ? { available: true } : { available: false },
      });
      const model = createAgentModel({
        decide: ({ request, lastTool, toolMessages }) => {
          if (lastTool?.content.includes('"available":true') === true)
            return { answer: 'Free on 2025-03-19.' };
          const date = (request === 1 ? WEEK_ONE : WEEK_TWO)[toolMessages.length];
          if (date === undefined) return { answer: 'Taken every day that week.' };
          return { calls: [{ name: 'checkAvailability', arguments: { date } }] };
        },
        lastWords: 'I could not finish the search.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: 'Is the meeting room free any day next week?' }],
        followUps: ['And the week after?'],
        check: ({ requests }) => (requests.length === 2 ? [] : [`${requests.length} of 2 requests ran`]),
      };
    },
  },
];
