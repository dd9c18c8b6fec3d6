import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RunStateError } from '../errors/run-state-error.js';
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
      'tampered-usage.json',
      'truncated.json',
      'unknown-field.json',
      'v1-completed.json',
      'v1-interrupted.json',
    ]);
  });

  it.each(['v1-interrupted.json', 'v1-completed.json'])(
    '%s restores as it was written (a version 2 guard memory upgraded, its rounds an earlier request)',
    (name) => {
      const text = fixture(name);
      const written = JSON.parse(text);
      const expected =
        written.guard === undefined
          ? written
          : {
              ...written,
              guard: {
                schemaVersion: 3,
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
