import { describe, expect, it } from 'vitest';
import type { Store } from '../../core/store.js';
import { MemoryStore } from '../../store/memory-store.js';
import { ECHO, textResult, WRITE_FILE } from './proxy/__fixtures__/mcp-tools.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { createSessionPolicy, proxiedCall } from './proxy/session-policy.js';
import { createProxySessionMemory, readMemory } from './proxy-session-memory.js';

/** One instance's session: its own policy, the memory kept in `store` under `sessionId`. */
function instance(store: Store, sessionId = 'conversation-1', errors: string[] = []) {
  const policy = createSessionPolicy({ config: parseProxyConfig({}, 'test'), tools: [ECHO, WRITE_FILE] });
  const memory = createProxySessionMemory({ store, sessionId, policy, onError: (line) => errors.push(line) });
  return { policy, memory };
}

const echo = proxiedCall('echo', { text: 'again' });
const answer = { kind: 'result', result: textResult('again') } as const;

describe('createProxySessionMemory', () => {
  it('two instances observing one session in turn reach what one instance reaches alone', async () => {
    const alone = instance(new MemoryStore());
    const expected = [];
    for (let index = 0; index < 4; index++) expected.push((await alone.memory.observe(echo, answer)).kind);
    const store = new MemoryStore();
    const pair = [instance(store), instance(store)];
    const seen = [];
    for (let index = 0; index < 4; index++)
      seen.push((await pair[index % 2]?.memory.observe(echo, answer))?.kind);
    expect(seen).toEqual(expected);
    expect(seen.at(-1)).toBe('repeat');
  });

  it("a write the other instance's guard stopped is refused before it runs", async () => {
    const store = new MemoryStore();
    const [a, b] = [instance(store), instance(store)];
    const write = proxiedCall('write_file', { path: '/tmp/a', content: 'x' });
    const wrote = { kind: 'result', result: textResult('ok') } as const;
    for (let index = 0; index < 3; index++) await a.memory.observe(write, wrote);
    expect(b.policy.decide(write).kind).not.toBe('refuse');
    await b.memory.refresh(write);
    expect(b.policy.decide(write)).toMatchObject({ kind: 'refuse', code: 'LOOP_DETECTED' });
  });

  it('keeps sessions apart', async () => {
    const store = new MemoryStore();
    const [a, b] = [instance(store, 'one'), instance(store, 'two')];
    for (let index = 0; index < 3; index++) await a.memory.observe(echo, answer);
    expect((await b.memory.observe(echo, answer)).kind).toBe('pass');
  });

  it('says when the store fails, and goes on with what this instance knows', async () => {
    const errors: string[] = [];
    const failing = new MemoryStore();
    failing.set = () => Promise.reject(new Error('store down'));
    failing.get = () => Promise.reject(new Error('store down'));
    const { memory } = instance(failing, 'conversation-1', errors);
    await memory.refresh(proxiedCall('write_file', {}));
    expect((await memory.observe(echo, answer)).kind).toBe('pass');
    expect(errors).toEqual([
      "the guard's memory could not be read: store down",
      "the guard's memory could not be saved: store down",
    ]);
  });
});

describe('readMemory', () => {
  it.each([
    ['nothing', undefined],
    ['another version', { schemaVersion: 2, state: {}, stopped: [] }],
    ['stops not pairs', { schemaVersion: 1, state: {}, stopped: [['a']] }],
    ['a stop round not a count', { schemaVersion: 1, state: {}, stopped: [['a', -1]] }],
    ['a huge fingerprint', { schemaVersion: 1, state: {}, stopped: [['x'.repeat(5000), 1]] }],
    ['too many stops', { schemaVersion: 1, state: {}, stopped: Array(1001).fill(['a', 1]) }],
  ])('starts afresh from %s', (_, value) => {
    expect(readMemory(value)).toEqual({ state: readMemory(undefined).state, stopped: [] });
  });
});
