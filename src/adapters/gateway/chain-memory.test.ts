import { describe, expect, it } from 'vitest';
import { EMPTY_GUARD_STATE } from '../../core/guard-state.js';
import { MemoryStore } from '../../store/memory-store.js';
import { loadChainRecord, restoreChainRecord, saveChainRecord } from './chain-memory.js';
import type { SessionRecord } from './session-record.js';
import type { ChainMemory } from './wire.js';

function memory(result: string): ChainMemory {
  return {
    identity: { opening: 'You answer.\u0000Where is A-1?' },
    anchor: 'turn-1',
    kept: 'results',
    rounds: [
      {
        calls: [
          {
            id: 'c1',
            name: 'getStatus',
            arguments: '{"id":"A-1"}',
            result: { content: result, isError: false },
          },
        ],
      },
    ],
    pending: [{ id: 'c2', name: 'getStatus', arguments: '{"id":"A-1"}' }],
    owed: [],
  };
}

const RECORD: SessionRecord = {
  schemaVersion: 1,
  turn: 'turn-1',
  start: EMPTY_GUARD_STATE,
  end: EMPTY_GUARD_STATE,
  audited: 1,
  closed: false,
  usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
  askedAt: 5,
};

describe('the chain record of an answer', () => {
  it('is read back with the session’s record it carries, in one read', async () => {
    const store = new MemoryStore();
    expect(
      await saveChainRecord(store, { answer: 'resp_1' }, memory('PENDING'), {
        id: 's',
        version: 2,
        record: RECORD,
      }),
    ).toBe(true);
    const read = await loadChainRecord(store, { answer: 'resp_1' });
    expect(read?.memory).toEqual(memory('PENDING'));
    expect(read?.session).toEqual({ id: 's', loaded: { record: RECORD, version: 2 } });
    expect(await saveChainRecord(store, { answer: 'resp_2' }, memory('PENDING'), undefined)).toBe(true);
    expect((await loadChainRecord(store, { answer: 'resp_2' }))?.session).toBeUndefined();
  });

  it("keeps a conversation's memory apart from an answer's of the same id", async () => {
    const store = new MemoryStore();
    expect(await saveChainRecord(store, { conversation: 'x1' }, memory('CONVERSATION'), undefined)).toBe(
      true,
    );
    expect(await loadChainRecord(store, { answer: 'x1' })).toBeUndefined();
    expect((await loadChainRecord(store, { conversation: 'x1' }))?.memory).toEqual(memory('CONVERSATION'));
  });

  it('is not kept when its texts pass the bound (256 KiB)', async () => {
    const store = new MemoryStore();
    expect(
      await saveChainRecord(store, { answer: 'resp_big' }, memory('x'.repeat(256 * 1024)), undefined),
    ).toBe(false);
    expect(await loadChainRecord(store, { answer: 'resp_big' })).toBeUndefined();
  });

  it('reads a hostile session part as none, and anything that is no memory as no record', () => {
    const base = memory('PENDING');
    for (const session of [
      null,
      'x',
      { id: 's', version: 0, record: RECORD },
      { id: 's', version: 1, record: {} },
      { id: 7, version: 1, record: RECORD },
    ])
      expect(restoreChainRecord({ ...base, session })).toEqual({ memory: base });
    for (const value of [null, [], { ...base, owed: 'x' }, { ...base, rounds: [{ calls: [{ id: 1 }] }] }])
      expect(restoreChainRecord(value)).toBeUndefined();
  });

  it('reads a record written before `kept` as one that kept results, and anything but `calls` as results', () => {
    const { kept: _kept, ...older } = memory('PENDING');
    expect(restoreChainRecord(older)?.memory.kept).toBe('results');
    expect(restoreChainRecord({ ...older, kept: 'everything' })?.memory.kept).toBe('results');
    expect(restoreChainRecord({ ...older, kept: 'calls' })?.memory.kept).toBe('calls');
  });
});
