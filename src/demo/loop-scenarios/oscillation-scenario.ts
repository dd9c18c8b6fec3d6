import { defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

const idInput = (key: string) => ({
  type: 'object',
  properties: { [key]: { type: 'string' } },
  required: [key],
  additionalProperties: false,
});

/**
 * 3. Two tools that feed each other: an employee's record names a manager, the manager's team names the
 * employee, whose record names the manager again (A-B-A-B).
 */
export const oscillationScenario: LoopScenario = {
  id: 3,
  name: 'A-B-A-B oscillation',
  description: 'getEmployee names a manager, getTeam names the employee: the model bounces between them',
  legitimate: false,
  build() {
    const getEmployee = defineTool({
      name: 'getEmployee',
      description: 'An employee record, with the id of their manager.',
      input: idInput('employeeId'),
      effect: 'read',
      execute: ({ employeeId }: { employeeId: string }) => ({ employeeId, name: 'Ana', managerId: 'e-4' }),
    });
    const getTeam = defineTool({
      name: 'getTeam',
      description: "A manager's team: the ids of the people who report to them.",
      input: idInput('managerId'),
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
      expected: 'loop-detected',
    };
  },
};
