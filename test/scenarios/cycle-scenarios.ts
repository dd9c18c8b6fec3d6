import type { CallSpec } from '../../src/testing/assistant-with-calls.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** A read tool answering a fixed record for each key (the records point at each other). */
function linkTool(name: string, key: string, description: string, records: Record<string, unknown>) {
  return defineTool({
    name,
    description,
    input: stringInput(key),
    effect: 'read',
    execute: (args: Record<string, string>) => records[args[key] as string] ?? { found: false },
  });
}

/** A model that follows a fixed ring of calls, one per round, forever. */
function ringModel(ring: readonly Omit<CallSpec, 'id'>[], lastWords: string) {
  return createAgentModel({
    decide: ({ round }) => ({ calls: [ring[(round - 1) % ring.length] as Omit<CallSpec, 'id'>] }),
    lastWords,
  });
}

/**
 * Two tools that feed each other: an employee's record names a manager, the manager's team names the
 * employee, whose record names the manager again (A-B-A-B).
 */
export const oscillationScenario: ScenarioSpec = {
  family: 'cycle',
  name: 'A-B-A-B oscillation',
  description: 'getEmployee names a manager, getTeam names the employee: the model bounces between them',
  kind: 'loop',
  expected: 'LOOP_DETECTED',
  detector: 'cycle',
  evidentAt: 3,
  period: 2,
  build() {
    const getEmployee = defineTool({
      name: 'getEmployee',
      description: 'An employee record, with the id of their manager.',
      input: stringInput('employeeId'),
      effect: 'read',
      execute: ({ employeeId }: { employeeId: string }) => ({ employeeId, name: 'Ana', managerId: 'e-4' }),
    });
    const getTeam = defineTool({
      name: 'getTeam',
      description: "A manager's team: the ids of the people who report to them.",
      input: stringInput('managerId'),
      effect: 'read',
      execute: ({ managerId }: { managerId: string }) => ({ managerId, members: ['e-17'] }),
    });
    const model = createAgentModel({
      decide: ({ lastTool }) =>
        lastTool?.name === 'getEmployee'
          ? { calls: [{ name: 'getTeam', arguments: { managerId: 'e-4' } }] }
          : { calls: [{ name: 'getEmployee', arguments: { employeeId: 'e-17' } }] },
      lastWords: "I could not work out Ana's skip-level manager from these records.",
    });
    return {
      model,
      tools: [getEmployee, getTeam],
      messages: [{ role: 'user', content: "Who is Ana's (e-17) skip-level manager?" }],
    };
  },
};

export const cycleScenarios: readonly ScenarioSpec[] = [
  oscillationScenario,
  {
    family: 'cycle',
    name: 'a period-3 cycle over three tools',
    description: 'getFlight → getRoute → getAirport → the same flight again: A-B-C-A-B-C',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'cycle',
    evidentAt: 4,
    period: 3,
    build() {
      const tools = [
        linkTool('getFlight', 'flightId', 'A flight, with its route.', { 'AZ-611': { route: 'LIN-FCO' } }),
        linkTool('getRoute', 'routeId', 'A route, with its destination airport.', {
          'LIN-FCO': { destination: 'FCO' },
        }),
        linkTool('getAirport', 'code', 'An airport, with the flights that serve it.', {
          FCO: { flights: ['AZ-611'] },
        }),
      ];
      const ring = [
        { name: 'getFlight', arguments: { flightId: 'AZ-611' } },
        { name: 'getRoute', arguments: { routeId: 'LIN-FCO' } },
        { name: 'getAirport', arguments: { code: 'FCO' } },
      ];
      return {
        model: ringModel(ring, 'I could not find a connection after AZ-611.'),
        tools,
        messages: [{ role: 'user', content: 'Which connection can I take after flight AZ-611?' }],
      };
    },
  },
  {
    family: 'cycle',
    name: 'a period-4 cycle of config includes',
    description: 'readConfig a.yaml → b → c → d, whose include is a.yaml again: A-B-C-D-A-B-C-D',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'cycle',
    evidentAt: 5,
    period: 4,
    build() {
      const files = ['a.yaml', 'b.yaml', 'c.yaml', 'd.yaml'];
      const records = Object.fromEntries(
        files.map((path, i) => [path, { path, include: files[(i + 1) % files.length], keys: 3 + i }]),
      );
      const tool = linkTool('readConfig', 'path', 'A config file, with the file it includes.', records);
      return {
        model: ringModel(
          files.map((path) => ({ name: 'readConfig', arguments: { path } })),
          'The config includes form a cycle: a.yaml → b → c → d → a.yaml.',
        ),
        tools: [tool],
        messages: [{ role: 'user', content: 'What is the effective value of timeout in a.yaml?' }],
      };
    },
  },
];
