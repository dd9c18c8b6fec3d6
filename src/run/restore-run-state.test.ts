import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { argumentsDigest } from '../chain/arguments-digest.js';
import { RunStateError } from '../core/errors/run-state-error.js';
import { restoreRunState } from './restore-run-state.js';

// biome-ignore lint/suspicious/noExplicitAny: a saved state is edited here as the raw JSON it is
type Json = any;

const FIXTURES = new URL('./__fixtures__/run-state/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

function refusal(saved: unknown): RunStateError {
  try {
    restoreRunState(saved);
  } catch (error) {
    if (error instanceof RunStateError) return error;
    throw error;
  }
  throw new Error('the state was accepted');
}

describe('restoreRunState: the fixtures written for each version', () => {
  it('lists every fixture in this test (a new fixture gets a case)', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual([
      'README.md',
      'future-schema.json',
      'prototype-key.json',
      'tampered-guard.json',
      'tampered-pending.json',
      'tampered-settled.json',
      'tampered-usage.json',
      'truncated.json',
      'unknown-field.json',
      'v1-completed.json',
      'v1-interrupted.json',
      'v2-interrupted.json',
    ]);
  });

  it.each(['v1-interrupted.json', 'v1-completed.json'])(
    '%s restores upgraded: version 2, its guard memory version 3 (its rounds an earlier request), every unanswered call of a paused round waiting',
    (name) => {
      const text = fixture(name);
      const written = JSON.parse(text);
      const pending =
        written.pending === undefined
          ? {}
          : {
              pending: written.messages.at(-1).toolCalls.map((call: Json) => {
                const listed = written.pending.find((p: Json) => p.toolCallId === call.id) ?? {};
                return {
                  ...listed,
                  toolCallId: call.id,
                  toolName: call.name,
                  arguments: call.arguments,
                  argumentsSummary: call.arguments,
                  argumentsDigest: argumentsDigest(call.name, call.arguments),
                };
              }),
            };
      const expected =
        written.guard === undefined
          ? { ...written, schemaVersion: 2 }
          : {
              ...written,
              schemaVersion: 2,
              ...pending,
              guard: {
                schemaVersion: 4,
                nextRound: written.guard.nextRound,
                request: 0,
                window: written.guard.window.map((round: { round: number; calls: object[] }) => ({
                  round: round.round,
                  request: 0,
                  calls: round.calls.map((call) => ({ ...call, outcome: 'ok' })),
                })),
                nudged: written.guard.nudged,
              },
            };
      expect(restoreRunState(text)).toEqual(expected);
      expect(restoreRunState(JSON.parse(text))).toEqual(expected);
    },
  );

  it('v2-interrupted.json restores as it was written: the answer of the call that ran, the pending call with its digest', () => {
    const text = fixture('v2-interrupted.json');
    const written = JSON.parse(text);
    // Its guard memory was written at version 3: it is read as version 4, the rounds' calls as they were.
    const guard = {
      ...written.guard,
      schemaVersion: 4,
      window: written.guard.window.map(({ changed: _changed, ...round }: { changed?: true }) => round),
    };
    expect(restoreRunState(text)).toEqual({ ...written, guard });
  });

  it('a restored state is a fresh copy: changing it changes nothing of the saved value', () => {
    const saved = JSON.parse(fixture('v1-interrupted.json'));
    const restored = restoreRunState(saved);
    expect(restored.messages).not.toBe(saved.messages);
    expect(restored.pending?.[0]?.payload).not.toBe(saved.pending[0].payload);
  });

  it.each([
    ['future-schema.json', 'unsupported-version', 'schemaVersion'],
    ['prototype-key.json', 'tampered', 'pending.0.payload.__proto__'],
    ['truncated.json', 'malformed', undefined],
    ['tampered-pending.json', 'tampered', 'pending.0'],
    ['tampered-settled.json', 'tampered', 'pending'],
    ['unknown-field.json', 'tampered', 'approvedBy'],
    ['tampered-guard.json', 'tampered', 'guard'],
    ['tampered-usage.json', 'tampered', 'usage.totalTokens'],
  ])('%s is refused (%s at %s)', (name, reason, path) => {
    const error = refusal(fixture(name));
    expect(error).toMatchObject({ code: 'INVALID_RUN_STATE', reason, path });
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('restoreRunState: hostile values', () => {
  const valid = () => JSON.parse(fixture('v1-interrupted.json'));

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 5],
    ['an array', []],
    ['an empty string', ''],
    ['JSON of a string', '"state"'],
  ])('%s is malformed', (_name, value) => {
    expect(refusal(value).reason).toMatch(/malformed|unsupported-version/);
  });

  it.each([
    ['a message with an unknown role', (s: Json) => (s.messages[0].role = 'root')],
    ['a message that is not an object', (s: Json) => (s.messages[1] = 'hi')],
    ['a tool call without arguments', (s: Json) => delete s.messages[1].toolCalls[0].arguments],
    ['a tool message with a numeric isError', (s: Json) => (s.messages[2].isError = 1)],
    ['an extra field on a message', (s: Json) => (s.messages[0].trusted = true)],
    ['a negative roundTrips', (s: Json) => (s.roundTrips = -1)],
    ['a fractional toolCalls', (s: Json) => (s.toolCalls = 1.5)],
    ['an infinite elapsedMs', (s: Json) => (s.elapsedMs = Number.POSITIVE_INFINITY)],
    ['a nextCallId of 0', (s: Json) => (s.nextCallId = 0)],
    ['a runId with odd characters', (s: Json) => (s.runId = '../../etc')],
    ['an empty pending list', (s: Json) => (s.pending = [])],
    ['a pending call of no call of the round', (s: Json) => (s.pending[0].toolCallId = 'c9')],
    [
      'a pending round whose last message is not the assistant',
      (s: Json) => s.messages.push({ role: 'user', content: 'x' }),
    ],
    ['a ten-megabyte session id', (s: Json) => (s.sessionId = 'x'.repeat(10 * 1024 * 1024))],
    ['a guard of another version', (s: Json) => (s.guard.schemaVersion = 1)],
  ])('refuses a state with %s, never half-applied', (_name, change) => {
    const state = valid();
    change(state);
    expect(() => restoreRunState(state)).toThrow(RunStateError);
    expect(() => restoreRunState(JSON.stringify(state))).toThrow(RunStateError);
  });

  it.each([
    ['an answer to no call of the paused round', 'tampered', (s: Json) => (s.messages[4].toolCallId = 'c9')],
    ['a call both answered and waiting', 'tampered', (s: Json) => (s.pending[0].toolCallId = 'c3')],
    ['a call neither answered nor waiting', 'tampered', (s: Json) => s.messages.pop()],
    ['a call answered twice', 'tampered', (s: Json) => s.messages.push({ ...s.messages[4] })],
    [
      'a digest that is not the call’s',
      'tampered',
      (s: Json) => (s.pending[0].argumentsDigest = '0'.repeat(64)),
    ],
    ['a pending call without its digest', 'malformed', (s: Json) => delete s.pending[0].argumentsDigest],
    ['two calls of the round with one id', 'tampered', (s: Json) => (s.messages[3].toolCalls[1].id = 'c2')],
    ['the version 1 number (answers after its paused round)', 'tampered', (s: Json) => (s.schemaVersion = 1)],
  ])('refuses a version 2 paused state with %s (%s)', (_name, reason, change) => {
    const state = JSON.parse(fixture('v2-interrupted.json'));
    change(state);
    expect(refusal(state).reason).toBe(reason);
  });

  it('keeps a guard note beside an answer, and computes the summary a person reads from the call itself', () => {
    const state = JSON.parse(fixture('v2-interrupted.json'));
    state.messages[4].note = 'You called getOrder with these arguments before.';
    state.pending[0].argumentsSummary = 'amount: 1 (a lie)';
    const restored = restoreRunState(state);
    expect(restored.messages[4]).toMatchObject({ note: 'You called getOrder with these arguments before.' });
    expect(restored.pending?.[0]?.argumentsSummary).toBe('{"orderId":"A-1"}');
  });

  it('refuses nesting deeper than the bound, and a Proxy whose traps throw, without crashing', () => {
    const state = valid();
    let deep: Record<string, unknown> = {};
    state.pending[0].payload = deep;
    for (let i = 0; i < 10_000; i++) {
      const next = {};
      deep.next = next;
      deep = next;
    }
    expect(refusal(state).reason).toBe('tampered');
    const hostile = new Proxy(valid(), {
      get() {
        throw new Error('trap');
      },
    });
    expect(refusal(hostile).reason).toBe('malformed');
  });

  it('refuses values that are not plain JSON data (a Map, a class instance)', () => {
    const state = valid();
    state.pending[0].payload = new Map([['a', 1]]);
    expect(refusal(state).reason).toBe('malformed');
  });
});

/** The same data with every object's keys in reverse order, as `jsonb` or another language may write it. */
function reordered(value: Json): Json {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reordered(value[key])]),
  );
}

describe('restoreRunState: JSON data, compared canonically (canonical-compare, json-data-only)', () => {
  const saved = () => JSON.parse(fixture('v2-interrupted.json'));

  it('restores a state whose keys another JSON writer reordered (PostgreSQL jsonb), guard included', () => {
    const state = reordered(saved());
    expect(Object.keys(state.guard)[0]).not.toBe(Object.keys(saved().guard)[0]);
    expect(restoreRunState(state)).toEqual(restoreRunState(saved()));
    expect(restoreRunState(JSON.stringify(state))).toEqual(restoreRunState(saved()));
  });

  it('refuses a sparse messages array with a million holes as malformed, not with a TypeError', () => {
    const state = saved();
    state.messages.length = 1_000_000;
    const error = refusal(state);
    expect(error.reason).toBe('tampered');
    expect(error.message).toMatch(/more than 1000000 values/);
    const holes = saved();
    holes.messages.length += 3;
    expect(refusal(holes)).toMatchObject({
      reason: 'malformed',
      path: `messages.${saved().messages.length}`,
    });
  });

  it('refuses an array of length 2^32 - 1 at once, by its length', () => {
    const state = saved();
    state.messages.length = 2 ** 32 - 1;
    expect(refusal(state).reason).toBe('tampered');
  });

  it.each([
    ['a BigInt in a pending payload', (s: Json) => (s.pending[0].arguments = 10n)],
    ['NaN', (s: Json) => (s.elapsedMs = Number.NaN)],
    ['a function', (s: Json) => (s.usage.inputTokens = () => 1)],
    ['a symbol in an array', (s: Json) => s.messages.push(Symbol('m'))],
  ])('refuses %s: no JSON text carries it', (_name, change) => {
    const state = saved();
    change(state);
    expect(refusal(state).reason).toBe('malformed');
  });

  it('takes an undefined field as absent, as JSON.stringify writes it', () => {
    const state = saved();
    state.sessionId = undefined;
    expect(restoreRunState(state).sessionId).toBeUndefined();
  });
});
