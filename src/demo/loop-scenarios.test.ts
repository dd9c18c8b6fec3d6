import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import type { LoopOutcome } from '../run/loop-outcome.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { historyProblems } from '../testing/history-problems.js';
import { MemoryStore } from '../testing/memory-store.js';
import {
  contractMismatchScenario,
  createAgentModel,
  formatScenarioTable,
  GUARDED_POLICY,
  type LoopScenario,
  loopScenarios,
  loopScenariosReport,
  noToolScenario,
  oscillationScenario,
  pollingScenario,
  runLoopScenarios,
  runScenario,
  type ScenarioRow,
  transientFailureScenario,
  truncatedSearchScenario,
  twelveStepTaskScenario,
  uselessToolsScenario,
} from './loop-scenarios/index.js';

type Stopped = Extract<LoopOutcome, { type: 'stopped' }>;

function stoppedOf(outcome: LoopOutcome): Stopped {
  if (outcome.type !== 'stopped') throw new Error(`expected a stopped outcome, got ${outcome.type}`);
  return outcome;
}

async function guarded(scenario: LoopScenario) {
  return runScenario(scenario, GUARDED_POLICY);
}

describe('loop scenarios: every scenario under the guarded defaults', () => {
  it.each(loopScenarios.map((scenario) => [scenario.id, scenario.name, scenario] as const))(
    'scenario %i (%s) ends as expected with a well-formed history',
    async (_id, _name, scenario) => {
      const run = await guarded(scenario);
      expect(historyProblems(run.outcome.messages)).toEqual([]);
      if (run.expected === 'completed') expect(run.outcome.type).toBe('completed');
      else expect(run.reason).toBe(run.expected);
      expect(run.right).toBe(true);
    },
  );

  it('1: the contract-mismatch loop stops with exact-repeat at round 3 (3 identical rounds: roundTrips <= 3)', async () => {
    const run = await guarded(contractMismatchScenario);
    const stopped = stoppedOf(run.outcome);
    expect(stopped.reason).toBe('loop-detected');
    expect(stopped.roundTrips).toBeLessThanOrEqual(3);
    expect(stopped.roundTrips).toBe(3);
    expect(stopped.toolCalls).toBe(3);
    expect(stopped.evidence).toMatchObject({
      kind: 'loop',
      detector: 'exact-repeat',
      toolNames: ['queryOrderStatus'],
      occurrences: 3,
      rounds: [1, 2, 3],
    });
    expect(stopped.wastedRoundTrips).toBe(2);
  });

  it('2: the reworded search stops with same-result at round 3 (3 rounds, one result: roundTrips <= 3)', async () => {
    const run = await guarded(truncatedSearchScenario);
    const stopped = stoppedOf(run.outcome);
    expect(stopped.reason).toBe('loop-detected');
    expect(stopped.roundTrips).toBeLessThanOrEqual(3);
    expect(stopped.evidence).toMatchObject({ detector: 'same-result', occurrences: 3, rounds: [1, 2, 3] });
    // Three different argument fingerprints, one result fingerprint.
    const fingerprints = stopped.evidence.kind === 'loop' ? stopped.evidence.fingerprints : [];
    expect(new Set(fingerprints.map((f) => f.call)).size).toBe(3);
    expect(new Set(fingerprints.map((f) => f.result)).size).toBe(1);
  });

  it('3: A-B-A-B stops with a period-2 cycle at round 4, the first round the cycle is seen twice (roundTrips <= 4)', async () => {
    const run = await guarded(oscillationScenario);
    const stopped = stoppedOf(run.outcome);
    expect(stopped.reason).toBe('loop-detected');
    expect(stopped.roundTrips).toBeLessThanOrEqual(4);
    expect(stopped.evidence).toMatchObject({
      detector: 'cycle',
      period: 2,
      rounds: [1, 2, 3, 4],
      toolNames: ['getEmployee', 'getTeam'],
    });
    expect(stopped.wastedRoundTrips).toBe(2);
  });

  it.each([contractMismatchScenario, truncatedSearchScenario, oscillationScenario])(
    'the nudge reaches the model before the loop stop ($name)',
    async (scenario) => {
      const { model, tools, messages } = scenario.build();
      const outcome = stoppedOf(await runToolLoop({ model, tools, messages }));
      const nudgeAt = outcome.messages.findIndex((m) => m.role === 'tool' && m.note !== undefined);
      const lastAssistant = outcome.messages.findLastIndex((m) => m.role === 'assistant');
      expect(nudgeAt).toBeGreaterThan(0);
      // The nudge came in an earlier round than the one that was stopped, and the model was sent it.
      expect(nudgeAt).toBeLessThan(lastAssistant);
      const sent = model.requests.at(-1)?.messages ?? [];
      expect(
        sent.some((m) => m.role === 'tool' && m.note?.startsWith('NOTE from the runtime') === true),
      ).toBe(true);
    },
  );

  it('no legitimate scenario is stopped, warned about or nudged', async () => {
    for (const scenario of loopScenarios.filter((s) => s.legitimate)) {
      const run = await guarded(scenario);
      expect(run.outcome.type, scenario.name).toBe('completed');
      expect(run.guardWarnings, scenario.name).toBe(0);
      expect(run.nudged, scenario.name).toBe(false);
    }
  });

  it('4: two transient failures re-called by the model complete with no loop reported', async () => {
    const run = await guarded(transientFailureScenario);
    expect(run.outcome).toMatchObject({ type: 'completed', roundTrips: 4, toolCalls: 3 });
    const codes = run.outcome.toolResults.map((r) => (r.type === 'error' ? r.code : 'ok'));
    expect(codes).toEqual(['TOOL_UNAVAILABLE', 'TOOL_UNAVAILABLE', 'ok']);
    expect(run.guardWarnings).toBe(0);
  });

  it('5, 6, 7: the 12-step task, the polling job and the direct answer complete in 13, 9 and 1 rounds', async () => {
    expect((await guarded(twelveStepTaskScenario)).outcome).toMatchObject({
      type: 'completed',
      roundTrips: 13,
      toolCalls: 12,
    });
    const polling = (await guarded(pollingScenario)).outcome;
    expect(polling).toMatchObject({ type: 'completed', roundTrips: 9, toolCalls: 8 });
    expect(polling.toolResults.at(-1)?.content).toContain('"state":"done"');
    expect((await guarded(noToolScenario)).outcome).toMatchObject({
      type: 'completed',
      roundTrips: 1,
      toolCalls: 0,
    });
  });

  it('8: distinct useless calls are stopped by the ceiling with max-round-trips at 50', async () => {
    const stopped = stoppedOf((await guarded(uselessToolsScenario)).outcome);
    expect(stopped.reason).toBe('max-round-trips');
    expect(stopped.roundTrips).toBe(50);
    expect(stopped.evidence).toEqual({ kind: 'ceiling', limit: 'round-trips', max: 50, used: 50 });
  });
});

describe('loop scenarios: the comparison with step caps, and the table', () => {
  let rows: ScenarioRow[];
  beforeAll(async () => {
    rows = await runLoopScenarios();
  });

  it('keeps every history well-formed under every policy', () => {
    for (const row of rows) {
      for (const run of [row.guarded, ...row.stepCaps]) {
        expect(historyProblems(run.outcome.messages), `${row.name} / ${run.policy}`).toEqual([]);
      }
    }
  });

  it('shows step caps burning the whole cap on loops, and the 10-step cap killing the 12-step task', () => {
    for (const row of rows.filter((r) => r.expected === 'loop-detected')) {
      expect(row.stepCaps.map((run) => [run.reason, run.roundTrips])).toEqual([
        ['max-round-trips', 10],
        ['max-round-trips', 20],
        ['max-round-trips', 25],
      ]);
    }
    // Wasted under a cap: from the first repeating round (2 for exact/same-result, 3 for A-B-A-B) on.
    expect(rows[0]?.stepCaps.map((run) => run.wastedRoundTrips)).toEqual([9, 19, 24]);
    expect(rows[2]?.stepCaps.map((run) => run.wastedRoundTrips)).toEqual([8, 18, 23]);
    expect(rows[4]?.stepCaps.map((run) => run.outcome.type)).toEqual(['stopped', 'completed', 'completed']);
  });

  it('prints a table with every scenario, the step caps and the verdicts', async () => {
    const table = formatScenarioTable(rows);
    for (const scenario of loopScenarios) expect(table).toContain(`| ${scenario.id} | ${scenario.name}`);
    for (const cap of ['cap 10', 'cap 20', 'cap 25']) expect(table).toContain(cap);
    expect(table).toContain('guarded (toolwarden defaults): right 8/8');
    expect(table).not.toContain('NO (');
    const report = await loopScenariosReport();
    expect(report.allCorrect).toBe(true);
    expect(report.table).toBe(table);
  });

  it('historyProblems is not vacuous: it finds missing, doubled and stray tool responses', () => {
    const call = (id: string) => ({ id, name: 't', arguments: '{}' });
    const tool = (id: string): Message => ({
      role: 'tool',
      toolCallId: id,
      name: 't',
      content: '1',
      isError: false,
    });
    const assistant: Message = { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] };
    expect(historyProblems([assistant, tool('a')])).toEqual(['message 0: call b has 0 tool responses']);
    expect(historyProblems([assistant, tool('a'), tool('b'), tool('b')])).toHaveLength(1);
    expect(historyProblems([tool('x')])).toHaveLength(1);
    expect(historyProblems([{ role: 'assistant', content: '', toolCalls: [call(''), call('')] }])).toEqual([
      'message 0: a call has no id',
      'message 0: call ids repeat',
      'message 0: call  has 0 tool responses',
    ]);
  });
});

describe('the session guard across requests', () => {
  /** Calls queryOrderStatus twice per request, then gives up with text: the loop spans user messages. */
  function twoCallsPerRequest() {
    const { tools } = contractMismatchScenario.build();
    const model = createAgentModel({
      decide: ({ round }) =>
        round <= 2
          ? { calls: [{ name: 'queryOrderStatus', arguments: { orderId: 'A-1042' } }] }
          : { answer: 'No verdict yet; ask me again in a minute.' },
      lastWords: 'No verdict.',
    });
    return { model, tools };
  }
  const first: Message[] = [{ role: 'user', content: 'Did order A-1042 get paid?' }];
  const again: Message = { role: 'user', content: 'And now?' };

  it('catches a loop that spans two user messages when both requests share a session store', async () => {
    const store = new MemoryStore();
    const { model, tools } = twoCallsPerRequest();
    const one = await runToolLoop({ model, tools, messages: first, sessionId: 's-1', store });
    expect(one.type).toBe('completed');
    const two = await runToolLoop({
      model,
      tools,
      messages: [...one.messages, again],
      sessionId: 's-1',
      store,
    });
    const stopped = stoppedOf(two);
    expect(stopped.reason).toBe('loop-detected');
    expect(stopped.roundTrips).toBe(1);
    expect(stopped.evidence).toMatchObject({ detector: 'exact-repeat', occurrences: 3 });
    expect(historyProblems(stopped.messages)).toEqual([]);
  });

  it('does not carry guard state to a request without the store, or to another session', async () => {
    const store = new MemoryStore();
    const { model, tools } = twoCallsPerRequest();
    const one = await runToolLoop({ model, tools, messages: first, sessionId: 's-1', store });
    const next = [...one.messages, again];
    expect((await runToolLoop({ model, tools, messages: next })).type).toBe('completed');
    const other = await runToolLoop({ model, tools, messages: next, sessionId: 's-2', store });
    expect(other.type).toBe('completed');
  });
});
