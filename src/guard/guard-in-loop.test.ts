import { describe, expect, it } from 'vitest';
import { createAgentModel } from '../../test/scenarios/create-agent-model.js';
import { createToolRuntime } from '../chain/runtime.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import { explainStop } from '../run/explain-stop.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { type AnyTool, defineTool, type ToolDefinition } from '../tools/define-tool.js';

// The cases, each through the public loop: what a new user with realistic tools would see.

const USER: Message[] = [{ role: 'user', content: 'Go.' }];
function tool<A>(
  name: string,
  execute: (args: A) => unknown,
  extra: Partial<ToolDefinition<A, unknown>> = {},
): AnyTool {
  return defineTool<A, unknown>({ name, description: `${name}.`, effect: 'read', execute, ...extra });
}
const calls = (...specs: { name: string; arguments: unknown }[]) => assistantWithCalls(specs);
const answer = { role: 'assistant', content: 'Done.' } as const;
const stopped = (outcome: LoopOutcome) => (outcome.type === 'stopped' ? outcome : undefined);

describe('the loop guard v2, case by case', () => {
  it('1: identical calls in one response are one occurrence: the model gets its results and answers', async () => {
    const getPrice = tool('getPrice', () => ({ sku: 'X-1', price: 12 }));
    const same = { name: 'getPrice', arguments: { sku: 'X-1' } };
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script: [calls(same, same, same), answer] }),
      tools: [getPrice],
      messages: USER,
    });
    expect(outcome).toMatchObject({ type: 'completed', roundTrips: 2 });
  });

  it('2: distinct inputs with coinciding short results are iteration (availability, acks)', async () => {
    const dates = ['01', '02', '03', '04', '05', '06'];
    const available = tool('checkAvailability', ({ date }: { date: string }) => ({
      available: date === '06',
    }));
    const scan = await runToolLoop({
      model: new ScriptedModel({
        script: [...dates.map((date) => calls({ name: 'checkAvailability', arguments: { date } })), answer],
      }),
      tools: [available],
      messages: USER,
    });
    expect(scan.type).toBe('completed');
    const send = tool('sendInvite', () => ({ status: 'sent' }), { effect: 'write' });
    const batch = await runToolLoop({
      model: new ScriptedModel({
        script: [...dates.map((to) => calls({ name: 'sendInvite', arguments: { to } })), answer],
      }),
      tools: [send],
      messages: USER,
    });
    expect(batch.type).toBe('completed');
  });

  it('3: a tool declared polled may answer "running" eight times; undeclared, it is stopped and told how to declare it', async () => {
    const poll = (hinted: boolean, throwOnStop = false) => {
      let polls = 0;
      const status = tool(
        'getJobStatus',
        () => (++polls > 8 ? { state: 'done' } : { state: 'running' }),
        hinted ? { loop: { polled: true } } : {},
      );
      const model = createAgentModel({
        decide: ({ lastTool }) =>
          lastTool?.content.includes('done') === true
            ? { answer: 'Ready.' }
            : { calls: [{ name: 'getJobStatus', arguments: { jobId: 'j' } }] },
        lastWords: 'Still running.',
      });
      return runToolLoop({ model, tools: [status], messages: USER, throwOnStop });
    };
    expect(await poll(true)).toMatchObject({ type: 'completed', roundTrips: 10 });
    const unhinted = stopped(await poll(false));
    expect(unhinted).toMatchObject({ reason: 'LOOP_DETECTED', roundTrips: 3 });
    expect(explainStop(unhinted as LoopOutcome)).toContain('loop: { polled: true }');
    // The developer's stop text, when the stop is thrown: the same explanation.
    await expect(poll(false, true)).rejects.toThrow(/declare loop: \{ polled: true \}/);
  });

  it('4: a volatile field does not hide a loop (default fields, and a tool’s own)', async () => {
    let now = 0;
    const check = tool('checkStatus', () => ({ status: 'pending', checkedAt: ++now }));
    const same = calls({ name: 'checkStatus', arguments: { id: 'a' } });
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script: Array.from({ length: 10 }, () => same) }),
      tools: [check],
      messages: USER,
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 3 });
    const own = tool('checkOwn', () => ({ status: 'pending', seq: ++now }), {
      loop: { ignoreFields: ['seq'] },
    });
    const ownCall = calls({ name: 'checkOwn', arguments: { id: 'a' } });
    const second = await runToolLoop({
      model: new ScriptedModel({ script: Array.from({ length: 10 }, () => ownCall) }),
      tools: [own],
      messages: USER,
    });
    expect(second).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 3 });
  });

  it('5: results that look the same to the model are the same, whatever the truncation marker says', async () => {
    let n = 0;
    const search = tool('search', () => `${'same top hits '.repeat(20)}${'x'.repeat(100 + n++)}`, {
      maxResultChars: 157,
    });
    const same = calls({ name: 'search', arguments: { q: 'a' } });
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script: Array.from({ length: 10 }, () => same) }),
      tools: [search],
      messages: USER,
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 3 });
  });

  it('6: the note says what repeated, beside the tool’s content, which stays the tool’s JSON', async () => {
    const get = tool('getOrder', () => ({ code: 0 }));
    const same = calls({ name: 'getOrder', arguments: { id: 'A' } });
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script: [same, same, same] }),
      tools: [get],
      messages: USER,
    });
    const tools = outcome.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual(['{"code":0}', '{"code":0}', '{"code":0}']);
    expect(tools[1]?.note).toMatch(/getOrder was called with these same arguments 2 times \(rounds 1, 2\)/);
    expect(tools[0]?.note).toBeUndefined();
  });

  it('6: a new call with a content-bearing result already seen is told so, not that it was made before', async () => {
    const hits = {
      hits: Array.from({ length: 5 }, (_, i) => `document ${i} about the same topic, unchanged`),
    };
    const search = tool('search', () => hits);
    // Reworded queries: near each other (one gist), where three distinct ids would not be.
    const script = ['flights to lisbon in may', 'cheap flights lisbon may', 'may flights to lisbon'].map(
      (q) => calls({ name: 'search', arguments: { q } }),
    );
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script }),
      tools: [search],
      messages: USER,
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED' });
    const note = outcome.messages.find((m) => m.role === 'tool' && m.note !== undefined);
    expect(note?.role === 'tool' && note.note).toMatch(/^NOTE from the runtime: 2 different calls to search/);
  });

  it('7: a limit stop says which writes ran and how often, and does not invite a retry', async () => {
    const send = tool('sendInvite', () => ({ status: 'sent' }), { effect: 'write' });
    const script = Array.from({ length: 45 }, (_, i) =>
      calls({ name: 'sendInvite', arguments: { to: `u${i}` } }),
    );
    const outcome = stopped(
      await runToolLoop({ model: new ScriptedModel({ script }), tools: [send], messages: USER }),
    );
    expect(outcome).toMatchObject({
      reason: 'TOOL_CALL_LIMIT',
      evidence: { kind: 'limit', tool: 'sendInvite', limit: 40 },
    });
    expect(outcome?.text).toContain('Already done before it stopped: sendInvite (40 times).');
    expect(outcome?.text).not.toMatch(/try again|ask again\./);
    expect(explainStop(outcome as LoopOutcome)).toContain('limits.byTool.sendInvite');
  });

  it('9: whitespace inside string values is content: three indentations are three edits', async () => {
    const replace = tool('replaceLines', () => ({ ok: true }), { effect: 'write' });
    const texts = ['spec:\n  port: 8080', 'spec:\n    port: 8080', 'spec:\n\tport: 8080'];
    const script = [...texts.map((text) => calls({ name: 'replaceLines', arguments: { text } })), answer];
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script }),
      tools: [replace],
      messages: USER,
    });
    expect(outcome.type).toBe('completed');
  });

  it('10 and 12: a session’s next request is new context (no carried stale rounds, re-reads at its start)', async () => {
    const store = new MemoryStore();
    const profile = tool('getProfile', () => ({ name: 'Ada', tier: 'gold' }));
    const order = tool('getOrder', ({ id }: { id: string }) => ({ id, state: 'shipped' }));
    for (let request = 0; request < 4; request++) {
      const outcome = await runToolLoop({
        model: new ScriptedModel({
          script: [
            calls({ name: 'getProfile', arguments: {} }),
            calls({ name: 'getOrder', arguments: { id: `o${request}` } }),
            calls({ name: 'getProfile', arguments: {} }),
            answer,
          ],
        }),
        runtime: createToolRuntime({ tools: [profile, order], store }),
        messages: USER,
        sessionId: 's',
      });
      expect(outcome.type).toBe('completed');
    }
  });

  it('12: a loop that continues into the next request is still caught there', async () => {
    const store = new MemoryStore();
    const get = tool('getOrder', () => ({ code: 0 }));
    const same = calls({ name: 'getOrder', arguments: { id: 'A' } });
    const first = await runToolLoop({
      model: new ScriptedModel({ script: [same, same, answer] }),
      runtime: createToolRuntime({ tools: [get], store }),
      messages: USER,
      sessionId: 's',
    });
    expect(first.type).toBe('completed');
    const second = await runToolLoop({
      model: new ScriptedModel({ script: [same, answer] }),
      runtime: createToolRuntime({ tools: [get], store }),
      messages: USER,
      sessionId: 's',
    });
    expect(second).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 1 });
  });

  it('11: the same test failure after each edit: three runs are checking work, the fourth a loop', async () => {
    const edit = tool('editFile', () => ({ ok: true }), { effect: 'write' });
    let runs = 0;
    const passesAt = (last: number) =>
      tool('runTests', () => (++runs >= last ? { passed: true } : { passed: false, failures: ['test_a'] }));
    const script = [1, 2, 3, 4, 5].flatMap((v) => [
      calls({ name: 'runTests', arguments: {} }),
      calls({ name: 'editFile', arguments: { patch: `v${v}` } }),
    ]);
    const fixed = await runToolLoop({
      model: new ScriptedModel({ script: [...script.slice(0, 7), answer] }),
      tools: [edit, passesAt(4)],
      messages: USER,
    });
    expect(fixed.type).toBe('completed');
    runs = 0;
    const stuck = await runToolLoop({
      model: new ScriptedModel({ script: [...script, answer] }),
      tools: [edit, passesAt(99)],
      messages: USER,
    });
    expect(stuck).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 7 });
  });

  it('13: the same content in another order, or a fresh cursor in every answer, is caught', async () => {
    let turn = 0;
    const items = ['a-item', 'b-item', 'c-item'];
    const list = tool('listItems', () => ({ items: turn++ % 2 === 0 ? items : [...items].reverse() }), {
      loop: { unordered: true },
    });
    const same = calls({ name: 'listItems', arguments: { folder: 'x' } });
    const reordered = await runToolLoop({
      model: new ScriptedModel({ script: Array.from({ length: 10 }, () => same) }),
      tools: [list],
      messages: USER,
    });
    expect(reordered).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 3 });
    let cursor = 0;
    const page = tool('listPage', () => ({ items, nextCursor: `c${++cursor}` }));
    const follow = await runToolLoop({
      model: new ScriptedModel({
        script: Array.from({ length: 10 }, () => calls({ name: 'listPage', arguments: { cursor: 'c0' } })),
      }),
      tools: [page],
      messages: USER,
    });
    expect(follow).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 3 });
  });

  it('the ceiling is a cost bound: a 30-page pagination finishes under the default, and its stop names the option', async () => {
    const page = tool('listOrders', ({ page: n }: { page: number }) => ({ page: n, orders: [`order-${n}`] }));
    const script = Array.from({ length: 30 }, (_, i) =>
      calls({ name: 'listOrders', arguments: { page: i + 1 } }),
    );
    const done = await runToolLoop({
      model: new ScriptedModel({ script: [...script, answer] }),
      tools: [page],
      messages: USER,
    });
    expect(done).toMatchObject({ type: 'completed', roundTrips: 31 });
    const capped = stopped(
      await runToolLoop({
        model: new ScriptedModel({ script }),
        tools: [page],
        messages: USER,
        maxRoundTrips: 10,
      }),
    );
    // The option is the developer's: explainStop names it, the user's text does not.
    expect(capped?.text).toContain('it needed more steps than the 10 one request may take');
    expect(capped?.text).not.toContain('maxRoundTrips');
    expect(explainStop(capped as LoopOutcome)).toContain('raise maxRoundTrips');
  });
});
