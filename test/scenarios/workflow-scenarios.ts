import type { CallSpec } from '../../src/testing/assistant-with-calls.js';
import { type AnyTool, defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** The account review's plan: twelve distinct calls, one per round (more than OpenAI Agents SDK's 10 turns). */
export const TWELVE_STEP_PLAN: readonly Omit<CallSpec, 'id'>[] = [
  { name: 'getCustomer', arguments: { customerId: 'c-9' } },
  { name: 'listOrders', arguments: { customerId: 'c-9' } },
  ...['o-1', 'o-2', 'o-3', 'o-4', 'o-5', 'o-6'].map((orderId) => ({
    name: 'getOrder',
    arguments: { orderId },
  })),
  { name: 'getShipment', arguments: { orderId: 'o-2' } },
  { name: 'getShipment', arguments: { orderId: 'o-5' } },
  { name: 'getInvoice', arguments: { customerId: 'c-9', month: '2024-05' } },
  { name: 'getInvoice', arguments: { customerId: 'c-9', month: '2024-06' } },
];

/** A read tool whose result echoes its arguments with a value: distinct calls give distinct results. */
function recordTool(name: string, description: string): AnyTool {
  return defineTool({
    name,
    description,
    effect: 'read',
    execute: (args: Record<string, unknown>) => ({
      ...args,
      found: true,
      record: `${name}:${JSON.stringify(args)}`,
    }),
  });
}

/** Real work that takes twelve rounds: every call is new and every result is new. */
export const twelveStepTaskScenario: ScenarioSpec = {
  family: 'workflow',
  name: 'legitimate 12-step task',
  description: "a customer's account review: 12 distinct calls over 5 tools, then the answer",
  kind: 'legitimate',
  expected: 'completed',
  build() {
    const tools = [
      recordTool('getCustomer', 'A customer record.'),
      recordTool('listOrders', "A customer's orders."),
      recordTool('getOrder', 'One order.'),
      recordTool('getShipment', "An order's shipment."),
      recordTool('getInvoice', "A customer's invoice for one month."),
    ];
    const model = createAgentModel({
      decide: ({ toolMessages }) => {
        const next = TWELVE_STEP_PLAN[toolMessages.length];
        if (next === undefined)
          return { answer: 'Account review of c-9: 6 orders, 2 shipped, invoices paid.' };
        return { calls: [next] };
      },
      lastWords: 'I reviewed part of the account of c-9 before I was stopped.',
    });
    return { model, tools, messages: [{ role: 'user', content: 'Review the account of customer c-9.' }] };
  },
};

/** The org chart the walk climbs: employee → manager, up to the CEO (no manager). */
const MANAGERS: Readonly<Record<string, string | null>> = {
  'e-17': 'e-9',
  'e-9': 'e-5',
  'e-5': 'e-3',
  'e-3': 'e-1',
  'e-1': null,
};

/** The value of a string field in a result, read off the text as a model reads it. */
const field = (content: string | undefined, name: string) =>
  new RegExp(`"${name}":"([^"]+)"`).exec(content ?? '')?.[1];

export const workflowScenarios: readonly ScenarioSpec[] = [
  {
    family: 'workflow',
    name: 'no tool needed',
    description: 'the model answers from what it knows, without calling a tool',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'getWeather',
        description: 'Current weather for a city.',
        effect: 'read',
        execute: () => ({ tempC: 21 }),
      });
      const model = createAgentModel({
        decide: () => ({ answer: 'Rome is the capital of Italy.' }),
        lastWords: 'Rome is the capital of Italy.',
      });
      return { model, tools: [tool], messages: [{ role: 'user', content: 'What is the capital of Italy?' }] };
    },
  },
  twelveStepTaskScenario,
  {
    family: 'workflow',
    name: 'search, details, book, confirm',
    description: 'searchHotels → getHotel(id from the search) → bookRoom(room from the hotel) → getBooking',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const searchHotels = defineTool({
        name: 'searchHotels',
        description: 'Hotels in a city.',
        input: stringInput('city'),
        effect: 'read',
        execute: () => ({ hotels: [{ hotelId: 'h-12', name: 'Albergo Sole', stars: 3 }] }),
      });
      const getHotel = defineTool({
        name: 'getHotel',
        description: "A hotel's rooms and prices.",
        input: stringInput('hotelId'),
        effect: 'read',
        execute: ({ hotelId }: { hotelId: string }) => ({
          hotelId,
          rooms: [{ roomId: 'r-204', priceEur: 95 }],
        }),
      });
      const bookRoom = defineTool({
        name: 'bookRoom',
        description: 'Books a room for the given nights.',
        input: stringInput('hotelId', 'roomId', 'nights'),
        effect: 'write',
        execute: () => ({ bookingId: 'bk-7731' }),
      });
      const getBooking = defineTool({
        name: 'getBooking',
        description: 'A booking, with its state.',
        input: stringInput('bookingId'),
        effect: 'read',
        execute: ({ bookingId }: { bookingId: string }) => ({ bookingId, state: 'confirmed' }),
      });
      const model = createAgentModel({
        decide: ({ lastTool }) => {
          const content = lastTool?.content;
          switch (lastTool?.name) {
            case undefined:
              return { calls: [{ name: 'searchHotels', arguments: { city: 'Rome' } }] };
            case 'searchHotels':
              return { calls: [{ name: 'getHotel', arguments: { hotelId: field(content, 'hotelId') } }] };
            case 'getHotel': {
              const args = {
                hotelId: field(content, 'hotelId'),
                roomId: field(content, 'roomId'),
                nights: '2',
              };
              return { calls: [{ name: 'bookRoom', arguments: args }] };
            }
            case 'bookRoom':
              return {
                calls: [{ name: 'getBooking', arguments: { bookingId: field(content, 'bookingId') } }],
              };
            default:
              return { answer: 'Booked: Albergo Sole, room r-204, 2 nights (bk-7731, confirmed).' };
          }
        },
        lastWords: 'I could not finish the booking.',
      });
      return {
        model,
        tools: [searchHotels, getHotel, bookRoom, getBooking],
        messages: [{ role: 'user', content: 'Book me a hotel room in Rome for 2 nights.' }],
      };
    },
  },
  {
    family: 'workflow',
    name: 'walking up the org chart',
    description: 'getEmployee five times, each time for the manager the last answer named, to the CEO',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'getEmployee',
        description: 'An employee record, with the id of their manager (null for the CEO).',
        input: stringInput('employeeId'),
        effect: 'read',
        execute: ({ employeeId }: { employeeId: string }) => ({
          employeeId,
          managerId: MANAGERS[employeeId] ?? null,
        }),
      });
      const model = createAgentModel({
        decide: ({ lastTool }) => {
          if (lastTool === undefined)
            return { calls: [{ name: 'getEmployee', arguments: { employeeId: 'e-17' } }] };
          const managerId = field(lastTool.content, 'managerId');
          if (managerId === undefined) return { answer: 'Five levels: e-17, e-9, e-5, e-3, e-1 (the CEO).' };
          return { calls: [{ name: 'getEmployee', arguments: { employeeId: managerId } }] };
        },
        lastWords: 'I could not reach the top of the org chart.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: 'How many levels are there between e-17 and the CEO?' }],
      };
    },
  },
];
