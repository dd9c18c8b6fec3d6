import { ToolInputError } from '../../src/core/errors/tool-input-error.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** The dates the calendar scan checks, in order: only the last one is free. */
export const SCAN_DATES = [
  '2025-03-10',
  '2025-03-11',
  '2025-03-12',
  '2025-03-13',
  '2025-03-14',
  '2025-03-17',
];

/** checkAvailability: `{"available":false}` except on `free`. */
function availabilityTool(free: ReadonlySet<string>) {
  return defineTool({
    name: 'checkAvailability',
    description: 'Whether the meeting room is free on a date (YYYY-MM-DD).',
    input: stringInput('date'),
    effect: 'read',
    execute: ({ date }: { date: string }) =>
      free.has(date) ? { available: true, slots: ['10:00', '14:00'] } : { available: false },
  });
}

const WAREHOUSES = ['AMS', 'BER', 'CPH', 'DUB', 'FRA', 'LIS', 'MAD', 'OSL'];
const DIRECTORIES = ['sales', 'support', 'engineering', 'finance', 'legal'];

export const scanningScenarios: readonly ScenarioSpec[] = [
  {
    family: 'scanning',
    name: 'calendar: 6 dates, 5 taken',
    description: 'checkAvailability for 6 dates; the first 5 answer {"available":false}, the 6th is free',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.content.includes('"available":true') === true) {
            return { answer: `The room is free on ${SCAN_DATES[toolMessages.length - 1]} at 10:00.` };
          }
          const date = SCAN_DATES[toolMessages.length];
          if (date === undefined) return { answer: 'The room is taken on every date I checked.' };
          return { calls: [{ name: 'checkAvailability', arguments: { date } }] };
        },
        lastWords: 'I could not finish checking the dates.',
      });
      return {
        model,
        tools: [availabilityTool(new Set([SCAN_DATES[5] as string]))],
        messages: [{ role: 'user', content: 'When is the meeting room next free?' }],
        check: ({ roundTrips }) => (roundTrips === 7 ? [] : [`expected 7 rounds, got ${roundTrips}`]),
      };
    },
  },
  {
    family: 'scanning',
    name: 'inventory: 7 warehouses empty',
    description: 'checkStock in 8 warehouses: {"inStock":0} 7 times, then 12 units',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'checkStock',
        description: 'Units of a SKU in stock in one warehouse.',
        input: stringInput('sku', 'warehouse'),
        effect: 'read',
        execute: ({ warehouse }: { warehouse: string }) => ({ inStock: warehouse === 'OSL' ? 12 : 0 }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool !== undefined && !lastTool.content.includes('"inStock":0')) {
            return { answer: 'SKU K-7 is in stock in Oslo (12 units).' };
          }
          const warehouse = WAREHOUSES[toolMessages.length];
          if (warehouse === undefined) return { answer: 'SKU K-7 is out of stock everywhere.' };
          return { calls: [{ name: 'checkStock', arguments: { sku: 'K-7', warehouse } }] };
        },
        lastWords: 'I could not finish checking the warehouses.',
      });
      return { model, tools: [tool], messages: [{ role: 'user', content: 'Where can I get SKU K-7?' }] };
    },
  },
  {
    family: 'scanning',
    name: 'directory lookups: not found 4 times',
    description: 'findUser in 5 directories: the same TOOL_ERROR "no such user" 4 times, then found',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'findUser',
        description: 'Looks a user up by name in one directory.',
        input: stringInput('directory', 'name'),
        effect: 'read',
        execute: ({ directory }: { directory: string }) => {
          if (directory !== 'legal') throw new ToolInputError({ message: 'no such user in this directory' });
          return { userId: 'u-301', name: 'Mara Holt', directory };
        },
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool !== undefined && !lastTool.isError) return { answer: 'Mara Holt is u-301, in legal.' };
          const directory = DIRECTORIES[toolMessages.length];
          if (directory === undefined) return { answer: 'There is no Mara Holt in any directory.' };
          return { calls: [{ name: 'findUser', arguments: { directory, name: 'Mara Holt' } }] };
        },
        lastWords: 'I could not find Mara Holt.',
      });
      return { model, tools: [tool], messages: [{ role: 'user', content: "What is Mara Holt's user id?" }] };
    },
  },
  {
    family: 'scanning',
    name: 'a scan stuck on one date',
    description: 'checkAvailability for 3 dates, then the third date again and again',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 4,
    build() {
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const date = SCAN_DATES[Math.min(toolMessages.length, 2)] as string;
          return { calls: [{ name: 'checkAvailability', arguments: { date } }] };
        },
        lastWords: 'The room is taken on the dates I checked.',
      });
      return {
        model,
        tools: [availabilityTool(new Set())],
        messages: [{ role: 'user', content: 'When is the meeting room next free?' }],
      };
    },
  },
];
