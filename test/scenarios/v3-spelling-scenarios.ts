import { PermissionDeniedError } from '../../src/core/errors/permission-denied-error.js';
import { ToolInputError } from '../../src/core/errors/tool-input-error.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'input-spellings';
const family = guardClassFamily(guardClass);

/** Saturday 14 June 2025 in seven spellings. */
const ONE_SATURDAY = [
  '2025-06-14',
  '14/06/2025',
  '06/14/2025',
  'June 14, 2025',
  '14 Jun 2025',
  'Saturday 14 June',
  '2025-06-14T09:00',
];

const WEEKDAYS_ONLY = 'deliveries run Monday to Friday; the date given is a Saturday';

/** scheduleDelivery: refuses a Saturday (a business rule the model can read), accepts other days. */
function deliveryTool(saturdays: ReadonlySet<string>) {
  return defineTool({
    name: 'scheduleDelivery',
    description: 'Schedules the delivery of an order on a date.',
    input: stringInput('orderId', 'date'),
    effect: 'write',
    execute: ({ date }: { date: string }) => {
      if (saturdays.has(date)) throw new ToolInputError({ message: WEEKDAYS_ONLY });
      return { scheduled: true, date, window: '08:00-12:00' };
    },
  });
}

/** Sends `name` with `values[i]` under `field` in round i + 1 (cycling when `cycle`); answers on success. */
function attemptsModel(
  name: string,
  field: string,
  values: readonly string[],
  options: {
    readonly cycle: boolean;
    readonly answer: string;
    readonly gaveUp: string;
    readonly extra?: object;
  },
) {
  return createAgentModel({
    decide: ({ lastTool, toolMessages }) => {
      if (lastTool !== undefined && !lastTool.isError) return { answer: options.answer };
      const n = toolMessages.length;
      const value = options.cycle ? values[n % values.length] : values[n];
      if (value === undefined) return { answer: options.gaveUp };
      return { calls: [{ name, arguments: { ...options.extra, [field]: value } }] };
    },
    lastWords: options.gaveUp,
  });
}

export const v3SpellingScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'a date refused in two formats, then ISO',
    description: 'createBooking: "14/06/2025" and "June 14, 2025" get one format error; "2025-06-14" books',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const createBooking = defineTool({
        name: 'createBooking',
        description: 'Books the meeting room on a date.',
        input: stringInput('room', 'date'),
        effect: 'write',
        execute: ({ date }: { date: string }) => {
          if (!/^\d{4}-\d{2}-\d{2}$/.test(date))
            throw new ToolInputError({ message: 'date must be YYYY-MM-DD' });
          return { bookingId: 'bk-61', date };
        },
      });
      return {
        model: attemptsModel('createBooking', 'date', ['14/06/2025', 'June 14, 2025', '2025-06-14'], {
          cycle: false,
          extra: { room: 'Maple' },
          answer: 'Maple is booked on 14 June.',
          gaveUp: 'I could not book Maple.',
        }),
        tools: [createBooking],
        messages: [{ role: 'user', content: 'Book the Maple room on 14/06/2025.' }],
        check: expectRounds(4),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'three Saturdays refused alike, then a Friday',
    description: 'scheduleDelivery on June 7, 14, 21 (one refusal text for three dates), then Friday June 20',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const saturdays = ['2025-06-07', '2025-06-14', '2025-06-21'];
      return {
        model: attemptsModel('scheduleDelivery', 'date', [...saturdays, '2025-06-20'], {
          cycle: false,
          extra: { orderId: 'o-3391' },
          answer: 'No Saturday is possible; the delivery comes on Friday 20 June, 08:00-12:00.',
          gaveUp: 'I could not schedule the delivery.',
        }),
        tools: [deliveryTool(new Set(saturdays))],
        messages: [
          {
            role: 'user',
            content: 'Deliver order o-3391 on any Saturday in June; failing that, on Friday the 20th.',
          },
        ],
        check: expectRounds(5),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a name in two spellings, then ask the user',
    description: 'findCustomer "Jörg Müller", then "Joerg Mueller": the same not-found error; the model asks',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const findCustomer = defineTool({
        name: 'findCustomer',
        description: 'Finds a customer by full name.',
        input: stringInput('name'),
        effect: 'read',
        execute: () => {
          throw new ToolInputError({ message: 'no customer with that name' });
        },
      });
      return {
        model: attemptsModel('findCustomer', 'name', ['Jörg Müller', 'Joerg Mueller'], {
          cycle: false,
          answer: 'Found him.',
          gaveUp: 'I find no Jörg Müller under either spelling: do you have his e-mail address?',
        }),
        tools: [findCustomer],
        messages: [{ role: 'user', content: "What is Jörg Müller's customer number?" }],
        check: expectRounds(3),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'one Saturday in seven date formats',
    description:
      'scheduleDelivery with 14 June 2025 spelt 7 ways, each refused with the same text; then gives up',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 2 sends the date of round 1 spelt another way, and gets the same refusal.
    evidentAt: 2,
    build: () => ({
      model: attemptsModel('scheduleDelivery', 'date', ONE_SATURDAY, {
        cycle: false,
        extra: { orderId: 'o-3391' },
        answer: 'The delivery is scheduled.',
        gaveUp: 'The delivery service does not accept 14 June.',
      }),
      tools: [deliveryTool(new Set(ONE_SATURDAY))],
      messages: [{ role: 'user', content: 'Deliver order o-3391 on Saturday 14 June.' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'one phone number in six spellings',
    description: 'addToDialer for +31 20 794 1100 spelt 6 ways, round and round: one refusal each time',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      const spellings = [
        '+31207941100',
        '+31 20 794 1100',
        '0031207941100',
        '020-7941100',
        '(020) 794 1100',
        '020 794 11 00',
      ];
      const addToDialer = defineTool({
        name: 'addToDialer',
        description: "Adds a phone number to the sales dialer's call list.",
        input: stringInput('number'),
        effect: 'write',
        execute: () => {
          throw new ToolInputError({ message: 'the number is on the do-not-call register' });
        },
      });
      return {
        model: attemptsModel('addToDialer', 'number', spellings, {
          cycle: true,
          answer: 'The number is on the call list.',
          gaveUp: 'The number may not be called.',
        }),
        tools: [addToDialer],
        messages: [{ role: 'user', content: 'Get +31 20 794 1100 into the dialer for a sales call.' }],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'one user name in four spellings, denied',
    description: 'getAccount for j.doe, J.Doe, jdoe, john.doe: PERMISSION_DENIED each time, round and round',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      const getAccount = defineTool({
        name: 'getAccount',
        description: "An employee's directory account.",
        input: stringInput('username'),
        effect: 'read',
        execute: () => {
          throw new PermissionDeniedError({ message: 'HR accounts are not visible to the helpdesk role' });
        },
      });
      return {
        model: attemptsModel('getAccount', 'username', ['j.doe', 'J.Doe', 'jdoe', 'john.doe'], {
          cycle: true,
          answer: 'Here is the account.',
          gaveUp: "I may not see John Doe's account.",
        }),
        tools: [getAccount],
        messages: [{ role: 'user', content: "Show me John Doe's directory account (HR)." }],
      };
    },
  },
];
