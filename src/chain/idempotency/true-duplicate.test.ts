import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../../core/message.js';
import { storesUnderTest } from '../../store/__fixtures__/stores-under-test.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { defineTool } from '../../tools/define-tool.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';
import { fileTools } from './__fixtures__/file-tools.js';
import { REPLAYED_SUCCESS_TEXT } from './idempotency-answers.js';

// Idempotency never drops a distinct write: a record answers only a true duplicate (the same call sent
// again, or the same arguments with no other write in the scope since). The same tests over each store.

const { stores, open, cleanup } = storesUnderTest('true-duplicate');
afterAll(cleanup);

const write = (content: string, id?: string) => ({
  name: 'write_file',
  arguments: { path: 'notes.txt', content },
  ...(id === undefined ? {} : { id }),
});
const user: Message[] = [{ role: 'user', content: 'Write the notes.' }];

describe.each(stores)('a distinct write always runs, over %s', (_name, specOf) => {
  async function session() {
    const { writeFile, moveFile, disk } = fileTools();
    const runtime = createToolRuntime({ tools: [writeFile, moveFile], store: await open(specOf()) });
    const call = (input: ReturnType<typeof write> | object) =>
      runtime.executeToolCall(input as ReturnType<typeof write>, { sessionId: 's' });
    return { runtime, disk, call };
  }

  it('write "one", then "two", then "one" again: three writes, and the file holds "one"', async () => {
    const { disk, call } = await session();
    const outcomes = [await call(write('one')), await call(write('two')), await call(write('one'))];
    expect(disk.writes).toEqual(['notes.txt=one', 'notes.txt=two', 'notes.txt=one']);
    expect(disk.files.get('notes.txt')).toBe('one');
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ isError: false, content: '"Successfully wrote to notes.txt"' });
      expect(outcome.type === 'answered' && outcome.result.replayOf).toBeUndefined();
    }
  });

  it('the same three writes in one response: each runs, in order', async () => {
    const { runtime, disk } = await session();
    const response = assistantWithCalls([write('one'), write('two'), write('one')]);
    const done = await runtime.executeToolCalls({ messages: user, response, sessionId: 's' });
    expect(disk.writes).toEqual(['notes.txt=one', 'notes.txt=two', 'notes.txt=one']);
    expect(done.results.map((result) => result.replayOf)).toEqual([undefined, undefined, undefined]);
  });

  it('a write of another tool ends the window too: write, move, the same write again runs', async () => {
    const { disk, call } = await session();
    await call(write('one'));
    await call({ name: 'move_file', arguments: { source: 'notes.txt', destination: 'old.txt' } });
    await call(write('one'));
    expect(disk.writes).toEqual(['notes.txt=one', 'notes.txt->old.txt', 'notes.txt=one']);
    expect([...disk.files]).toEqual([
      ['old.txt', 'one'],
      ['notes.txt', 'one'],
    ]);
  });

  it.each([
    ['of unknown effect', { effect: 'unknown' }],
    ['that is an idempotent write', { effect: 'idempotent-write' }],
    ['that is a write keeping no record', { effect: 'write', idempotency: false }],
  ] as const)(
    'a call of a tool %s ends the window too: the same write after it runs',
    async (_what, kind) => {
      const { writeFile, disk } = fileTools();
      const edit = defineTool({
        name: 'edit_file',
        description: 'Edits a file.',
        ...kind,
        execute: () => {
          disk.files.set('notes.txt', 'edited');
          disk.writes.push('notes.txt~edited');
          return 'edited';
        },
      });
      const runtime = createToolRuntime({ tools: [writeFile, edit], store: await open(specOf()) });
      await runtime.executeToolCall(write('one'), { sessionId: 's' });
      await runtime.executeToolCall({ name: 'edit_file' }, { sessionId: 's' });
      await runtime.executeToolCall(write('one'), { sessionId: 's' });
      expect(disk.writes).toEqual(['notes.txt=one', 'notes.txt~edited', 'notes.txt=one']);
      expect(disk.files.get('notes.txt')).toBe('one');
    },
  );

  it('a read does not end the window: the same write after it is still a duplicate', async () => {
    const { writeFile, disk } = fileTools();
    const read = defineTool({ name: 'read_file', description: 'Reads.', effect: 'read', execute: () => 'x' });
    const runtime = createToolRuntime({ tools: [writeFile, read], store: await open(specOf()) });
    await runtime.executeToolCall(write('one'), { sessionId: 's' });
    await runtime.executeToolCall({ name: 'read_file' }, { sessionId: 's' });
    expect(await runtime.executeToolCall(write('one'), { sessionId: 's' })).toMatchObject({
      result: { replayOf: expect.any(String) },
    });
    expect(disk.writes).toEqual(['notes.txt=one']);
  });

  it('with no other write between, the same write is a true duplicate: answered from its record', async () => {
    const { disk, call } = await session();
    await call(write('one', 'w1'));
    const again = await call(write('one', 'w2'));
    expect(again).toMatchObject({ content: `${REPLAYED_SUCCESS_TEXT}"Successfully wrote to notes.txt"` });
    expect(again.type === 'answered' && again.result.replayOf).toBe('w1');
    expect(disk.writes).toEqual(['notes.txt=one']);
  });

  it('the same call sent again (its tool call id) after other writes is still a duplicate: not run', async () => {
    const { disk, call } = await session();
    await call(write('one', 'w1'));
    await call(write('two', 'w2'));
    const resent = await call(write('one', 'w1'));
    expect(resent.type === 'answered' && resent.result.replayOf).toBe('w1');
    expect(disk.writes).toEqual(['notes.txt=one', 'notes.txt=two']);
    expect(disk.files.get('notes.txt')).toBe('two');
  });

  it("a tool's own key names the action: the same key after other writes is still one action", async () => {
    const { tool, ledger } = chargeTool({ idempotency: { key: (args) => args.order } });
    const { writeFile } = fileTools();
    const runtime = createToolRuntime({ tools: [tool, writeFile], store: await open(specOf()) });
    const charge = { name: 'charge', arguments: { order: 'A-1' } };
    await runtime.executeToolCall(charge, { sessionId: 's' });
    await runtime.executeToolCall(write('receipt'), { sessionId: 's' });
    expect(await runtime.executeToolCall(charge, { sessionId: 's' })).toMatchObject({
      result: { replayOf: expect.any(String) },
    });
    expect(ledger.charges).toHaveLength(1);
  });

  it('an unknown outcome is refused whatever ran since: the identical call is most likely its retry', async () => {
    const { tool, ledger } = chargeTool({ timeoutMs: 20, run: () => new Promise(() => {}) });
    const { writeFile, disk } = fileTools();
    const runtime = createToolRuntime({ tools: [tool, writeFile], store: await open(specOf()) });
    const charge = { name: 'charge', arguments: { order: 'A-1' } };
    expect(await runtime.executeToolCall(charge, { sessionId: 's' })).toMatchObject({
      code: 'TOOL_UNAVAILABLE',
    });
    await runtime.executeToolCall(write('log'), { sessionId: 's' });
    expect(await runtime.executeToolCall(charge, { sessionId: 's' })).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
    });
    expect(ledger.charges).toHaveLength(1);
    expect(disk.writes).toEqual(['notes.txt=log']);
  });
});
