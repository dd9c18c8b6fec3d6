import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'flip-flop';
const family = guardClassFamily(guardClass);

/** `n` distinct reasons built from parts: a new text each time, one of two meanings. */
function reasons(parts: readonly (readonly string[])[], n: number): string[] {
  let all: string[] = [''];
  for (const options of parts) all = all.flatMap((head) => options.map((part) => `${head}${part}`));
  return all.slice(0, n);
}

const UP_REASONS = reasons(
  [
    ['Customer ', 'Key account ', 'The client '],
    ['reports ', 'says there is ', 'mentions '],
    ['a checkout outage', 'failed payments', 'orders not going through', 'a broken checkout'],
  ],
  36,
);
const DOWN_REASONS = reasons(
  [
    ['Only ', 'Just ', 'Affects only '],
    ['one store', 'a single shop', 'one of their shops', 'a test store'],
    [', not urgent', ', can wait', ', low impact'],
  ],
  36,
);

/** setPriority: a write, answered {"ok":true} with the priority set. */
function priorityTool() {
  return defineTool({
    name: 'setPriority',
    description: 'Sets the priority of a support ticket (high or normal), with a reason for the audit trail.',
    input: stringInput('ticketId', 'priority', 'reason'),
    effect: 'write',
    execute: ({ priority }: { priority: string }) => ({ ok: true, priority }),
  });
}

export const v3FlipFlopScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'maintenance on, deploy, maintenance off',
    description: 'setMaintenance on, deploy, setMaintenance off: one state and back, as asked',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const setMaintenance = defineTool({
        name: 'setMaintenance',
        description: 'Turns the maintenance page of the shop on or off.',
        input: stringInput('state', 'reason'),
        effect: 'write',
        execute: ({ state }: { state: string }) => ({ ok: true, maintenance: state }),
      });
      const deploy = defineTool({
        name: 'deploy',
        description: 'Deploys a release to production.',
        input: stringInput('release'),
        effect: 'write',
        execute: ({ release }: { release: string }) => ({ deployed: release, healthy: true }),
      });
      const plan = [
        { name: 'setMaintenance', arguments: { state: 'on', reason: 'database migration of release 7.3' } },
        { name: 'deploy', arguments: { release: '7.3.0' } },
        {
          name: 'setMaintenance',
          arguments: { state: 'off', reason: 'release 7.3 is deployed and healthy' },
        },
      ];
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const next = plan[toolMessages.length];
          return next === undefined
            ? { answer: 'Release 7.3.0 is live; the shop is open again.' }
            : { calls: [next] };
        },
        lastWords: 'The deploy did not finish.',
      });
      return {
        model,
        tools: [setMaintenance, deploy],
        messages: [{ role: 'user', content: 'Deploy 7.3.0 behind the maintenance page.' }],
        check: expectRounds(4),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'open, read, close: a valve per tank',
    description:
      'setValve open, readLevel, setValve closed, for tanks T1, T2, T3: the same two states, new tanks',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const setValve = defineTool({
        name: 'setValve',
        description: 'Opens or closes the outlet valve of a tank.',
        input: stringInput('tankId', 'state'),
        effect: 'write',
        execute: ({ state }: { state: string }) => ({ ok: true, valve: state }),
      });
      const readLevel = defineTool({
        name: 'readLevel',
        description: 'The fill level of a tank, in percent.',
        input: stringInput('tankId'),
        effect: 'read',
        execute: ({ tankId }: { tankId: string }) => ({
          tankId,
          levelPct: 40 + Number(tankId.slice(1)) * 11,
        }),
      });
      const steps = ['T1', 'T2', 'T3'].flatMap((tankId) => [
        { name: 'setValve', arguments: { tankId, state: 'open' } },
        { name: 'readLevel', arguments: { tankId } },
        { name: 'setValve', arguments: { tankId, state: 'closed' } },
      ]);
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const next = steps[toolMessages.length];
          return next === undefined
            ? { answer: 'Flow-checked T1, T2 and T3: all valves closed again.' }
            : { calls: [next] };
        },
        lastWords: 'I flow-checked part of the tanks.',
      });
      return {
        model,
        tools: [setValve, readLevel],
        messages: [{ role: 'user', content: 'Flow-check the outlet of tanks T1 to T3.' }],
        check: expectRounds(10),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'priority up, then down on news',
    description: 'setPriority high, getIncident (the vendor fixed it), setPriority normal: one way and back',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const getIncident = defineTool({
        name: 'getIncident',
        description: 'The incident linked to a ticket, as the status page has it.',
        input: stringInput('ticketId'),
        effect: 'read',
        execute: () => ({
          incident: 'INC-220',
          state: 'resolved',
          note: 'payment provider fixed the outage',
        }),
      });
      const plan = [
        {
          name: 'setPriority',
          arguments: { ticketId: 'S-77', priority: 'high', reason: UP_REASONS[0] },
        },
        { name: 'getIncident', arguments: { ticketId: 'S-77' } },
        {
          name: 'setPriority',
          arguments: { ticketId: 'S-77', priority: 'normal', reason: 'the provider resolved INC-220' },
        },
      ];
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const next = plan[toolMessages.length];
          return next === undefined
            ? { answer: 'S-77 is back to normal: INC-220 is resolved.' }
            : { calls: [next] };
        },
        lastWords: 'I could not settle the priority of S-77.',
      });
      return {
        model,
        tools: [priorityTool(), getIncident],
        messages: [{ role: 'user', content: 'Triage S-77.' }],
        check: expectRounds(4),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'priority high, normal, high, normal, ...',
    description: 'setPriority flips S-77 between high and normal, with a reworded reason each time',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 3 sets high again, as round 1 did: from there each round undoes the one before.
    evidentAt: 3,
    period: 2,
    build() {
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const n = toolMessages.length;
          const high = n % 2 === 0;
          const reason = (high ? UP_REASONS : DOWN_REASONS)[Math.floor(n / 2) % 36];
          return {
            calls: [
              {
                name: 'setPriority',
                arguments: { ticketId: 'S-77', priority: high ? 'high' : 'normal', reason },
              },
            ],
          };
        },
        lastWords: 'I could not settle the priority of S-77.',
      });
      return {
        model,
        tools: [priorityTool()],
        messages: [{ role: 'user', content: 'Triage S-77.' }],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a flag on, read, off, read, on, ...',
    description: 'getFlag, setFlag on, getFlag, setFlag off, getFlag, ...: a new comment on each write',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 5 reads the flag off again, as round 1 did: the four rounds before it come round again.
    evidentAt: 5,
    period: 4,
    build() {
      let enabled = false;
      const getFlag = defineTool({
        name: 'getFlag',
        description: 'A feature flag: whether it is on, and for whom.',
        input: stringInput('flag'),
        effect: 'read',
        execute: ({ flag }: { flag: string }) => ({ flag, enabled, audience: 'all users' }),
      });
      const setFlag = defineTool({
        name: 'setFlag',
        description: 'Turns a feature flag on or off, with a comment for the change log.',
        input: stringInput('flag', 'enabled', 'comment'),
        effect: 'write',
        execute: ({ enabled: value }: { enabled: string }) => {
          enabled = value === 'true';
          return { ok: true };
        },
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool === undefined || lastTool.name === 'setFlag')
            return { calls: [{ name: 'getFlag', arguments: { flag: 'new-checkout' } }] };
          const on = lastTool.content.includes('"enabled":false');
          const n = Math.floor(toolMessages.length / 2);
          const comment = (on ? UP_REASONS : DOWN_REASONS)[n % 36];
          return {
            calls: [{ name: 'setFlag', arguments: { flag: 'new-checkout', enabled: String(on), comment } }],
          };
        },
        lastWords: 'The new checkout flag keeps changing.',
      });
      return {
        model,
        tools: [getFlag, setFlag],
        messages: [{ role: 'user', content: 'Should the new checkout be on? Set the flag accordingly.' }],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a meeting moved 10:00, 14:00, 10:00, ...',
    description:
      'moveEvent flips the review between 10:00 and 14:00, each time with a reworded note to the team',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 3,
    period: 2,
    build() {
      const moveEvent = defineTool({
        name: 'moveEvent',
        description: 'Moves a calendar event to a new start time and tells the attendees why.',
        input: stringInput('eventId', 'start', 'note'),
        effect: 'write',
        execute: ({ start }: { start: string }) => ({ moved: true, start, attendeesNotified: 6 }),
      });
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const n = toolMessages.length;
          const morning = n % 2 === 0;
          const note = (morning ? DOWN_REASONS : UP_REASONS)[Math.floor(n / 2) % 36];
          return {
            calls: [
              {
                name: 'moveEvent',
                arguments: {
                  eventId: 'ev-review',
                  start: morning ? '2025-05-14T10:00' : '2025-05-14T14:00',
                  note,
                },
              },
            ],
          };
        },
        lastWords: 'I could not settle the time of the review.',
      });
      return {
        model,
        tools: [moveEvent],
        messages: [
          {
            role: 'user',
            content: 'Find the best time on Wednesday for the design review and move it there.',
          },
        ],
      };
    },
  },
];
