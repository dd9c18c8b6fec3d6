import { describe, expect, it } from 'vitest';
import { hashClientKey, parseKeysFile, resolveClientKeys } from './client-keys.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';

describe('client keys', () => {
  it('knows each client by its key, from the environment, a hash or the keys file', () => {
    const file = parseKeysFile(`# team keys\n\ncarol ${hashClientKey('carol-key-0123456789ab')}\n`);
    expect(file.problems).toEqual([]);
    const { keys, problems } = resolveClientKeys(
      { alice: { kind: 'env', name: 'ALICE_KEY' }, bob: { kind: 'sha256', hash: hashClientKey(BOB) } },
      file.entries,
      { ALICE_KEY: ALICE },
    );
    expect(problems).toEqual([]);
    expect(keys.size).toBe(3);
    expect(keys.authenticate(`Bearer ${ALICE}`)).toBe('alice');
    expect(keys.authenticate(`bearer ${BOB}`)).toBe('bob');
    expect(keys.authenticate('Bearer carol-key-0123456789ab')).toBe('carol');
  });

  it('refuses a missing header, another scheme, a wrong key, a key with a suffix, a huge header', () => {
    const { keys } = resolveClientKeys({ alice: { kind: 'env', name: 'K' } }, [], { K: ALICE });
    for (const header of [
      undefined,
      '',
      ALICE,
      `Basic ${ALICE}`,
      'Bearer wrong',
      `Bearer ${ALICE}x`,
      `Bearer ${ALICE} extra`,
      `Bearer ${'a'.repeat(5000)}`,
    ])
      expect(keys.authenticate(header)).toBeUndefined();
  });

  it('lists every problem: an unset or short variable, a client twice, one key for two clients', () => {
    const { problems } = resolveClientKeys(
      {
        a: { kind: 'env', name: 'UNSET' },
        b: { kind: 'env', name: 'SHORT' },
        c: { kind: 'sha256', hash: hashClientKey(ALICE) },
        d: { kind: 'env', name: 'ALICE' },
      },
      [['c', hashClientKey(BOB)]],
      { SHORT: 'short', ALICE },
    );
    expect(problems.map((problem) => problem.message)).toEqual([
      'the variable UNSET is not set: a key has at least 16 characters',
      'the variable SHORT is too short: a key has at least 16 characters',
      'has the same key as client "c"',
      'names client "c" a second time',
    ]);
  });

  it('names a bad line of the keys file by its number, never its text (it could be a key)', () => {
    const { entries, problems } = parseKeysFile(
      `ok ${hashClientKey(ALICE)}\n${ALICE}\nbad id ${'0'.repeat(64)}\nx ${'A'.repeat(64)}`,
    );
    expect(entries).toEqual([['ok', hashClientKey(ALICE)]]);
    expect(problems.map((problem) => problem.path)).toEqual(['line 2', 'line 3', 'line 4']);
    expect(JSON.stringify(problems)).not.toContain(ALICE);
  });
});
