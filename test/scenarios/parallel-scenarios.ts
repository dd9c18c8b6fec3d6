import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const CITIES = ['Lisbon', 'Madrid', 'Paris', 'Berlin', 'Vienna'];
const DATES = ['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13'];
const LATER_DATES = ['2025-03-17', '2025-03-18', '2025-03-19', '2025-03-20'];

export const parallelScenarios: readonly ScenarioSpec[] = [
  {
    family: 'parallel',
    name: '3 identical calls in one response',
    description: 'getPrice({sku:"X-1"}) three times in one response, then the answer in round 2',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let executions = 0;
      const tool = defineTool({
        name: 'getPrice',
        description: 'The current price of a SKU.',
        input: stringInput('sku'),
        effect: 'read',
        execute: ({ sku }: { sku: string }) => {
          executions++;
          return { sku, priceEur: 19.9 };
        },
      });
      const call = { name: 'getPrice', arguments: { sku: 'X-1' } };
      const model = createAgentModel({
        decide: ({ round }) =>
          round === 1 ? { calls: [call, call, call] } : { answer: 'X-1 costs 19.90 EUR.' },
        lastWords: 'X-1 costs 19.90 EUR.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: 'How much is X-1?' }],
        check: ({ roundTrips }) => [
          ...(roundTrips === 2 ? [] : [`expected 2 rounds, got ${roundTrips}`]),
          // Identical read calls of one response are one occurrence: the chain runs one and shares it.
          ...(executions === 1 ? [] : [`getPrice ran ${executions} times for one distinct call`]),
        ],
      };
    },
  },
  {
    family: 'parallel',
    name: 'fan-out: weather in 5 cities',
    description: 'five distinct getWeather calls in one response, then the answer',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'getWeather',
        description: 'Current weather for a city.',
        input: stringInput('city'),
        effect: 'read',
        execute: ({ city }: { city: string }) => ({ city, tempC: 10 + city.length }),
      });
      const model = createAgentModel({
        decide: ({ round }) =>
          round === 1
            ? { calls: CITIES.map((city) => ({ name: 'getWeather', arguments: { city } })) }
            : { answer: 'Lisbon is the warmest.' },
        lastWords: 'I could not compare the cities.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: `Which is warmest now: ${CITIES.join(', ')}?` }],
      };
    },
  },
  {
    family: 'parallel',
    name: 'two rounds of parallel availability checks',
    description: '4 dates in one response, all {"available":false}; 4 more in the next, one free',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'checkAvailability',
        description: 'Whether the meeting room is free on a date (YYYY-MM-DD).',
        input: stringInput('date'),
        effect: 'read',
        execute: ({ date }: { date: string }) => ({ available: date === '2025-03-19' }),
      });
      const model = createAgentModel({
        decide: ({ round }) => {
          const dates = [DATES, LATER_DATES][round - 1];
          if (dates === undefined) return { answer: 'The room is free on 2025-03-19.' };
          return { calls: dates.map((date) => ({ name: 'checkAvailability', arguments: { date } })) };
        },
        lastWords: 'I could not finish checking the dates.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: 'When is the meeting room next free?' }],
      };
    },
  },
  {
    family: 'parallel',
    name: 'the same pair of calls every round',
    description: 'getStock for two SKUs in every response, each round the same two results',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      const tool = defineTool({
        name: 'getStock',
        description: 'Units of a SKU in stock.',
        input: stringInput('sku'),
        effect: 'read',
        execute: ({ sku }: { sku: string }) => ({ sku, units: sku === 'A-1' ? 0 : 3 }),
      });
      const model = createAgentModel({
        decide: () => ({
          calls: [
            { name: 'getStock', arguments: { sku: 'A-1' } },
            { name: 'getStock', arguments: { sku: 'B-2' } },
          ],
        }),
        lastWords: 'A-1 is out of stock; B-2 has 3 units.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: 'Tell me when A-1 is back in stock.' }],
      };
    },
  },
];
