import { describe, expect, it } from 'vitest';
import { argumentsDigest } from '../../chain/arguments-digest.js';
import { ApprovalError } from '../../core/errors/approval-error.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import type { Model } from '../../core/model.js';
import type { DbosMessages, DbosWorkflows } from './dbos-workflows.js';
import { durableTurns } from './durable-turns.js';
import { decideTurn, type TurnApproval } from './turn-approval.js';

const model: Model = { generate: async () => ({ message: { role: 'assistant', content: 'hi' } }) };
/** A DBOS that registers and refuses everything else: the checks below happen before any of it is called. */
const dbos = {
  registerWorkflow: (func: unknown) => func,
  runStep: (func: () => Promise<unknown>) => func(),
  startWorkflow: () => {
    throw new Error('not started in these tests');
  },
} as unknown as DbosWorkflows;

describe('durableTurns: bad options and input are refused before anything runs', () => {
  it.each([
    ['not the DBOS class', () => durableTurns({} as never, { model, runtime: { tools: [] } })],
    [
      'an option it does not know',
      () => durableTurns(dbos, { model, runtime: { tools: [] }, approvalTimeoutMs: 5 } as never),
    ],
    ['a wait of 0 ms', () => durableTurns(dbos, { model, runtime: { tools: [] }, approvalWaitMs: 0 })],
  ])('%s', (_what, make) => {
    expect(make).toThrow(InvalidOptionsError);
  });

  it('names the option it does not know, and the known ones', () => {
    expect(() =>
      durableTurns(dbos, { model, runtime: { tools: [] }, approvalTimeoutMs: 5 } as never),
    ).toThrow(/approvalTimeoutMs: is not an option of durableTurns.*approvalWaitMs/);
  });

  it.each([
    ['an empty turn id', { sessionId: 's', turnId: '', messages: [] }],
    ['a session id of 201 characters', { sessionId: 's'.repeat(201), turnId: 't', messages: [] }],
    ['messages that are not an array', { sessionId: 's', turnId: 't', messages: 'hi' }],
    ['no input', null],
  ])('run: %s', async (_what, input) => {
    const turns = durableTurns(dbos, { model, runtime: { tools: [] } });
    await expect(turns.run(input as never)).rejects.toThrow(InvalidOptionsError);
  });
});

describe('decideTurn: the rules of an approval, checked before anything is sent', () => {
  const pending = {
    toolCallId: 'c1',
    toolName: 'refund',
    arguments: '{"order":"A-1"}',
    argumentsSummary: '{"order":"A-1"}',
    argumentsDigest: argumentsDigest('refund', '{"order":"A-1"}'),
  };
  const digest = pending.argumentsDigest;
  function messages(approval: TurnApproval | null) {
    const sent: unknown[][] = [];
    const fake: DbosMessages = {
      getEvent: async <T>() => approval as T,
      send: async (...args: unknown[]) => {
        sent.push(args);
      },
    };
    return { fake, sent };
  }
  const waiting = (expiresAt: number): TurnApproval => ({
    state: 'waiting',
    round: 2,
    pending: [pending],
    expiresAt,
  });

  it('sends an approval of the pending call once per round (one idempotency key)', async () => {
    const { fake, sent } = messages(waiting(Date.now() + 60_000));
    await decideTurn(fake, 's:t', { c1: { approve: true, argumentsDigest: digest, by: 'alice' } });
    expect(sent).toEqual([
      [
        's:t',
        { round: 2, decisions: { c1: { approve: true, argumentsDigest: digest, by: 'alice' } } },
        'toolwarden.decisions',
        's:t:approval:2',
      ],
    ]);
  });

  it.each([
    ['never waited', null, { c1: 'deny' }, 'not-pending'],
    ['done', { state: 'done' }, { c1: 'deny' }, 'not-pending'],
    ['decided already', { state: 'decided', round: 1, decisions: {} }, { c1: 'deny' }, 'already-resumed'],
    ['expired', { state: 'expired', round: 1 }, { c1: 'deny' }, 'expired'],
    ['waiting, its deadline passed', waiting(Date.now() - 1), { c1: 'deny' }, 'expired'],
    [
      'another digest',
      waiting(Date.now() + 60_000),
      { c1: { approve: true, argumentsDigest: '0'.repeat(64) } },
      'arguments-changed',
    ],
    ['a call that does not wait', waiting(Date.now() + 60_000), { c9: 'deny' }, 'not-pending'],
    ['decisions of the wrong shape', waiting(Date.now() + 60_000), [] as never, 'not-pending'],
  ] as const)('refuses a decision when the turn %s', async (_what, approval, decisions, reason) => {
    const { fake, sent } = messages(approval as TurnApproval | null);
    const error = await decideTurn(fake, 's:t', decisions as never).catch((thrown: unknown) => thrown);
    expect(ApprovalError.isInstance(error) && error.reason).toBe(reason);
    expect(sent).toEqual([]);
  });

  it("refuses 'run' without a digest: the turn's calls are kept in DBOS, not held by the caller", async () => {
    const { fake, sent } = messages(waiting(Date.now() + 60_000));
    await expect(decideTurn(fake, 's:t', { c1: 'run' })).rejects.toThrow(InvalidOptionsError);
    expect(sent).toEqual([]);
  });
});
