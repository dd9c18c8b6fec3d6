import type { CallSpec } from '../../src/testing/assistant-with-calls.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const FAILING = { passed: 41, failed: ['parser.test.ts > handles an empty input'] };

/** runTests answers the failure until `fixed()` says the edit that fixes it was made. */
function testTools(fixed: () => boolean, onEdit: (patch: string) => void) {
  const runTests = defineTool({
    name: 'runTests',
    description: "Runs the project's test suite.",
    effect: 'read',
    execute: () => (fixed() ? { passed: 42, failed: [] } : FAILING),
  });
  const editFile = defineTool({
    name: 'editFile',
    description: 'Applies a patch to a file.',
    input: stringInput('path', 'patch'),
    effect: 'write',
    execute: ({ patch }: { patch: string }) => {
      onEdit(patch);
      return { ok: true };
    },
  });
  return [runTests, editFile];
}

/** Tests first, then each edit of `patches` followed by the tests, until they pass. */
function editAndTest(patches: readonly string[]) {
  return createAgentModel({
    decide: ({ lastTool, toolMessages }) => {
      if (lastTool?.name === 'runTests' && lastTool.content.includes('"failed":[]')) {
        return { answer: 'The parser handles an empty input now; all 42 tests pass.' };
      }
      if (lastTool?.name === 'editFile') return { calls: [{ name: 'runTests' }] };
      if (lastTool === undefined) return { calls: [{ name: 'runTests' }] };
      const patch = patches[Math.min(Math.floor(toolMessages.length / 2), patches.length - 1)] as string;
      return { calls: [{ name: 'editFile', arguments: { path: 'src/parser.ts', patch } }] };
    },
    lastWords: 'The parser test still fails.',
  });
}

const fixRequest = [{ role: 'user', content: 'The parser test fails on an empty input: fix it.' }] as const;

export const readAfterWriteScenarios: readonly ScenarioSpec[] = [
  {
    family: 'read after write',
    name: 'run the tests after each edit',
    description: 'runTests gives the same failure after two edits that do not fix it, then passes',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const edits: string[] = [];
      const patches = ['guard the empty string', 'return [] early', 'handle a lone newline'];
      return {
        model: editAndTest(patches),
        tools: testTools(
          () => edits.includes('handle a lone newline'),
          (patch) => edits.push(patch),
        ),
        messages: fixRequest,
        check: ({ roundTrips }) => (roundTrips === 8 ? [] : [`expected 8 rounds, got ${roundTrips}`]),
      };
    },
  },
  {
    family: 'read after write',
    name: 're-read a record after updating it',
    description: 'getTicket after each update; two updates (a note, a tag) do not show in the record',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const ticket = { ticketId: 'T-40', status: 'open', priority: 'low', assignee: 'none' };
      const getTicket = defineTool({
        name: 'getTicket',
        description: 'A support ticket: status, priority, assignee.',
        input: stringInput('ticketId'),
        effect: 'read',
        execute: () => ({ ...ticket }),
      });
      const updateTicket = defineTool({
        name: 'updateTicket',
        description: 'Updates one field of a ticket (internal notes and tags are not shown by getTicket).',
        input: stringInput('ticketId', 'field', 'value'),
        effect: 'write',
        execute: ({ field, value }: { field: string; value: string }) => {
          if (field in ticket) Object.assign(ticket, { [field]: value });
          return { ok: true };
        },
      });
      const updates: readonly Omit<CallSpec, 'id'>[] = [
        { name: 'updateTicket', arguments: { ticketId: 'T-40', field: 'note', value: 'customer called' } },
        { name: 'updateTicket', arguments: { ticketId: 'T-40', field: 'tag', value: 'billing' } },
        { name: 'updateTicket', arguments: { ticketId: 'T-40', field: 'priority', value: 'high' } },
      ];
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool === undefined || lastTool.name === 'updateTicket') {
            return { calls: [{ name: 'getTicket', arguments: { ticketId: 'T-40' } }] };
          }
          const next = updates[Math.floor(toolMessages.length / 2)];
          return next === undefined
            ? { answer: 'T-40 is noted, tagged billing and high priority.' }
            : { calls: [next] };
        },
        lastWords: 'I updated part of ticket T-40.',
      });
      return {
        model,
        tools: [getTicket, updateTicket],
        messages: [
          { role: 'user', content: 'Note the call on T-40, tag it billing, make it high priority.' },
        ],
      };
    },
  },
  {
    family: 'read after write',
    name: 'the same edit applied again',
    description:
      'the tests fail, the model applies one patch, the tests fail, it applies the same patch again',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 re-sends the round-2 write, which changes nothing: from there every round repeats.
    evidentAt: 4,
    period: 2,
    build() {
      return {
        model: editAndTest(['guard the empty string']),
        tools: testTools(
          () => false,
          () => undefined,
        ),
        messages: fixRequest,
      };
    },
  },
];
