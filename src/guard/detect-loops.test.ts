import { describe, expect, it } from 'vitest';
import {
  type CallRecord,
  EMPTY_GUARD_STATE,
  type GuardFinding,
  type GuardState,
} from '../core/guard-state.js';
import type { LoopHints } from '../tools/loop-hints.js';
import type { LoopThresholds } from './detect-loops.js';
import { observeRound, startRequest } from './loop-guard.js';
import { resolveHints } from './loop-hints.js';

const thresholds: LoopThresholds = {
  repeatLimit: 3,
  sameResultLimit: 3,
  maxCyclePeriod: 4,
  noProgressRounds: 4,
  transientRepeatLimit: 5,
};

/** A guard over scripted rounds; `hints` by tool name. */
function guard(hints: Record<string, LoopHints> = {}) {
  const config = { thresholds, hintsOf: (tool: string) => resolveHints(hints[tool], undefined) };
  let state: GuardState = startRequest(EMPTY_GUARD_STATE);
  const api = {
    round(...records: CallRecord[]): readonly GuardFinding[] {
      const observed = observeRound(state, records, config);
      state = observed.state;
      return observed.findings;
    },
    newRequest() {
      state = startRequest(state);
      return api;
    },
    get state() {
      return state;
    },
  };
  return api;
}

const read = (call: number, result: number, extra: Partial<CallRecord> = {}): CallRecord => ({
  tool: 'r',
  call,
  result,
  outcome: 'ok',
  ...extra,
});
const write = (call: number, result = 900): CallRecord => ({
  tool: 'w',
  call,
  result,
  outcome: 'ok',
  write: true,
});
const detectors = (findings: readonly GuardFinding[]) =>
  findings.map((f) => `${f.level}:${f.evidence.detector}`);

describe('detectLoops', () => {
  it('exact repeat: warns at the 2nd occurrence, stops at the 3rd, with the rounds as evidence', () => {
    const g = guard();
    expect(g.round(read(1, 1))).toEqual([]);
    expect(detectors(g.round(read(1, 1)))).toEqual(['warn:exact-repeat']);
    const stop = g.round(read(1, 1));
    expect(detectors(stop)).toContain('stop:exact-repeat');
    expect(stop[0]?.evidence).toMatchObject({ occurrences: 3, rounds: [1, 2, 3], toolNames: ['r'] });
  });

  it('the same call with a new result is progress (polling with progress)', () => {
    const g = guard();
    for (let result = 1; result <= 10; result++) expect(g.round(read(1, result))).toEqual([]);
  });

  it('identical calls of one round are one occurrence', () => {
    const g = guard();
    expect(g.round(read(1, 1), read(1, 1), read(1, 1))).toEqual([]);
    expect(g.state.window.at(-1)?.calls).toHaveLength(1);
  });

  it('same result under other arguments near each other stops only for content-bearing results', () => {
    // One gist: the arguments differ by wording or a generated value (a reworded query, a fresh token).
    const content = guard();
    content.round(read(1, 7, { content: true, gist: 50 }));
    expect(detectors(content.round(read(2, 7, { content: true, gist: 50 })))).toEqual(['warn:same-result']);
    expect(detectors(content.round(read(3, 7, { content: true, gist: 50 })))).toEqual(['stop:same-result']);
    // Distinct entities (one policy text for three managers) answered alike are no evidence.
    const entities = guard();
    for (let call = 1; call <= 6; call++)
      expect(entities.round(read(call, 7, { content: true }))).toEqual([]);
    // A call that passes on a handle an answer gave (a cursor) and gets the same content is near too.
    const cursor = guard();
    cursor.round(read(1, 7, { content: true }));
    cursor.round(read(2, 7, { content: true, chained: true }));
    expect(detectors(cursor.round(read(3, 7, { content: true, chained: true })))).toEqual([
      'stop:same-result',
    ]);

    const verdicts = guard();
    for (let call = 1; call <= 6; call++) expect(verdicts.round(read(call, 7))).toEqual([]);
    const acks = guard();
    for (let call = 1; call <= 6; call++)
      expect(acks.round({ ...write(call, 7), content: true })).toEqual([]);
    const shared = guard({ r: { sharedResults: true } });
    for (let call = 1; call <= 6; call++)
      expect(shared.round(read(call, 7, { content: true, gist: 50 }))).toEqual([]);
  });

  it('a polled tool may answer the same up to its bound, with a warning before the stop; no cycle, no stale rounds', () => {
    const g = guard({ r: { polled: { maxUnchanged: 8 } } });
    const levels: string[] = [];
    // The first answer, then 8 unchanged ones are allowed (a warning at the 8th); the 9th unchanged one stops.
    for (let poll = 1; poll <= 10; poll++) levels.push(...detectors(g.round(read(1, 1))));
    expect(levels).toEqual(['warn:unchanged-poll', 'stop:unchanged-poll']);
    // poll, log, poll, log: the same two rounds again, but a round with a poll is no part of a cycle.
    const alternating = guard({ r: { polled: true } });
    const log = { tool: 'log', call: 2, result: 2, outcome: 'ok' } as const;
    const found = [read(1, 1), log, read(1, 1), log].map((record) => detectors(alternating.round(record)));
    expect(found).toEqual([[], [], [], ['warn:exact-repeat']]);
    const plain = guard();
    const unhinted = [read(1, 1), log, read(1, 1), log].map((record) => detectors(plain.round(record)));
    expect(unhinted[3]).toContain('stop:cycle');
  });

  it('a read repeated across writes that change nothing it shows gets one more pass, then stops', () => {
    const g = guard();
    const found: string[][] = [];
    for (let edit = 1; edit <= 4; edit++) {
      expect(g.round(write(100 + edit))).toEqual([]);
      found.push(detectors(g.round(read(1, 1))));
    }
    // No warning first: "calling it again gives the same result" is no advice after an edit.
    expect(found.slice(0, 3).flat()).toEqual([]);
    expect(found[3]).toContain('stop:exact-repeat');
    // The same write again, the read answering as before: the read's first answer was news, then the
    // rounds repeat (write, read) as a cycle.
    const same = guard();
    same.round(write(100));
    same.round(read(1, 1));
    same.round(write(100));
    same.round(read(1, 1));
    expect(detectors(same.round(write(100)))).toEqual([
      'warn:exact-repeat',
      'stop:cycle',
      'warn:no-progress',
    ]);
  });

  it('a read whose answer changes after each write is progress, however long', () => {
    const g = guard();
    for (let edit = 1; edit <= 12; edit++) {
      expect(g.round(write(100 + edit))).toEqual([]);
      expect(g.round(read(1, edit))).toEqual([]);
    }
    // The same acknowledgement for the same write, each followed by something new, is progress too.
    const next = guard();
    for (let page = 1; page <= 12; page++) {
      expect(next.round(write(100))).toEqual([]);
      expect(next.round(read(1, page))).toEqual([]);
    }
  });

  it('a cycle of period 2 stops at its 4th round, and one of period 3 at its 6th', () => {
    const two = guard();
    const a = read(1, 1);
    const b = { ...read(2, 2), tool: 's' };
    expect(two.round(a)).toEqual([]);
    expect(two.round(b)).toEqual([]);
    two.round(a);
    expect(detectors(two.round(b))).toContain('stop:cycle');

    const three = guard({}).round;
    const c = { ...read(3, 3), tool: 'u' };
    const found: string[][] = [a, b, c, a, b, c].map((record) => detectors(three(record)));
    expect(found.slice(0, 5).some((f) => f.includes('stop:cycle'))).toBe(false);
    expect(found[5]).toContain('stop:cycle');
  });

  it('rounds that only repeat what the request saw stop as no-progress', () => {
    const g = guard();
    g.round(read(1, 1), read(2, 2));
    g.round(read(3, 3), read(4, 4));
    const shapes = [
      [read(1, 1), read(3, 3)],
      [read(2, 2), read(4, 4)],
      [read(1, 1), read(4, 4)],
      [read(2, 2), read(3, 3)],
    ];
    const found = shapes.map((round) => detectors(g.round(...round)));
    expect(found.at(-1)).toContain('stop:no-progress');
  });

  it('transient failures are no loop until the same call stays down for its own limit', () => {
    const g = guard();
    const down = read(1, 1, { outcome: 'transient' });
    const found = [1, 2, 3, 4, 5].map(() => detectors(g.round(down)));
    expect(found.slice(0, 4).flat()).toEqual([]);
    expect(found[4]).toEqual(['stop:still-unavailable']);
  });

  describe('a new request is new context', () => {
    it('a read made once per request is never a repeat', () => {
      const g = guard();
      for (let request = 0; request < 6; request++) {
        expect(g.round(read(1, 1))).toEqual([]);
        expect(g.round(read(request + 10, 5))).toEqual([]);
        g.newRequest();
      }
    });

    it('a call that already repeated in a request goes on counting in the next', () => {
      const g = guard();
      g.round(read(1, 1));
      g.round(read(1, 1));
      g.newRequest();
      expect(detectors(g.round(read(1, 1)))).toContain('stop:exact-repeat');
    });

    it('stale rounds and cycles do not carry over into the next request', () => {
      const g = guard();
      const a = read(1, 1);
      const b = { ...read(2, 2), tool: 's' };
      g.round(a);
      g.round(b);
      g.newRequest();
      expect(g.round(a)).toEqual([]);
      expect(g.round(b)).toEqual([]);
    });
  });
});

describe('detectLoops v3: news, nearness, receipts, refusals', () => {
  it('a write sent again with a fresh id (its shape left it out) is the same write: its new receipt is no news', () => {
    const g = guard();
    // The shape is what the write is with the fresh id left out; each receipt differs (a new ticket id).
    const post = (call: number, result: number): CallRecord => ({ ...write(call, result), shape: 77 });
    expect(g.round(post(1, 1))).toEqual([]);
    expect(detectors(g.round(post(2, 2)))).toEqual(['warn:exact-repeat']);
    expect(detectors(g.round(post(3, 3)))).toContain('stop:exact-repeat');
  });

  it('a write that follows an answer (a lease it passes on) is compared by its answers', () => {
    const g = guard();
    for (let job = 1; job <= 6; job++)
      expect(g.round({ ...write(job, job), shape: 77, chained: true })).toEqual([]);
  });

  it('one error from other calls of other tools is one streak: stopped at the 5th, with no warning', () => {
    const g = guard();
    const refused = (tool: string, call: number): CallRecord => ({ tool, call, result: 4, outcome: 'error' });
    const found = ['refund', 'credit', 'discount', 'refund', 'credit'].map((tool, i) =>
      detectors(g.round(refused(tool, 10 + i))),
    );
    expect(found.slice(0, 4).flat()).toEqual([]);
    expect(found[4]).toContain('stop:same-result');
  });

  it('reads one page apart with one answer step through pages that do not advance; ids 17 and 23 do not', () => {
    const page = (n: number): CallRecord => read(n, 9, { content: true, pace: [5, n] });
    const pages = guard();
    pages.round(page(1));
    pages.round(page(2));
    expect(detectors(pages.round(page(3)))).toContain('stop:same-result');
    const ids = guard();
    for (const id of [17, 23, 42])
      expect(ids.round(read(id, 9, { content: true, pace: [5, id] }))).toEqual([]);
  });

  it('a write flipping between two states, reworded each time, is a cycle', () => {
    const g = guard();
    const set = (call: number, gist: number): CallRecord => ({ ...write(call, 900), gist });
    const found = [set(1, 50), set(2, 60), set(3, 50), set(4, 60)].map((record) =>
      detectors(g.round(record)),
    );
    expect(found.slice(0, 3).flat()).not.toContain('stop:cycle');
    expect(found[3]).toContain('stop:cycle');
  });

  it('the same failing call once per request, nothing new between, stops at its third request without a warning', () => {
    const g = guard();
    const failing = read(1, 3, { outcome: 'error' });
    expect(g.round(failing)).toEqual([]);
    expect(g.newRequest().round(failing)).toEqual([]);
    expect(detectors(g.newRequest().round(failing))).toEqual(['stop:exact-repeat']);
  });

  it("a read's counter one up per call, the rest alike, is the same answer; a write's is its work", () => {
    const poll = (n: number): CallRecord => read(1, 100 + n, { frame: 8, sum: n });
    const reads = guard();
    reads.round(poll(1));
    reads.round(poll(2));
    expect(detectors(reads.round(poll(3)))).toContain('stop:exact-repeat');
    const work = guard();
    for (let n = 1; n <= 6; n++) expect(work.round({ ...write(1, 100 + n), frame: 8, sum: n })).toEqual([]);
  });
});
