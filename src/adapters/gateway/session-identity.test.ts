import { describe, expect, it } from 'vitest';
import { EMPTY_GUARD_STATE } from '../../core/guard-state.js';
import { SessionHeaderError, sessionIdentity } from './session-identity.js';
import { restoreSessionRecord, turnSoFar, turnStart } from './session-record.js';

describe('sessionIdentity', () => {
  const hints = { conversation: 'conv-1', user: 'ann', opening: 'sys\u0000hi' };

  it('takes the header first, then the conversation id, then the user, then the opening', () => {
    expect(sessionIdentity('s-1', hints)).toEqual({ id: 's-1', source: 'header' });
    expect(sessionIdentity(undefined, hints)).toEqual({ id: 'conversation:conv-1', source: 'conversation' });
    expect(sessionIdentity(undefined, { user: 'ann', opening: '' })).toEqual({
      id: 'user:ann',
      source: 'user',
    });
    const opening = sessionIdentity(undefined, { opening: 'sys\u0000hi' });
    expect(opening.source).toBe('opening');
    expect(opening.id).toMatch(/^opening:[0-9a-f]{32}$/);
    expect(sessionIdentity(undefined, { opening: 'sys\u0000hi' })).toEqual(opening);
    expect(sessionIdentity(undefined, { opening: 'sys\u0000hello' }).id).not.toBe(opening.id);
  });

  it('refuses a header that is no session id, and keeps a long field bounded', () => {
    for (const bad of ['', ' x', 'x'.repeat(201), 'a\u0000b', 'é'])
      expect(() => sessionIdentity(bad, hints)).toThrow(SessionHeaderError);
    expect(sessionIdentity(undefined, { user: 'u'.repeat(900), opening: '' }).id).toMatch(/^user:sha256-/);
  });
});

describe('the session record', () => {
  const record = {
    schemaVersion: 1,
    turn: 't1',
    start: EMPTY_GUARD_STATE,
    end: { ...EMPTY_GUARD_STATE, nextRound: 4, request: 1 },
    audited: 3,
    closed: false,
    usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    askedAt: 5,
  };

  it('is read back as written, and anything else is no record', () => {
    expect(restoreSessionRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
    for (const bad of [
      null,
      'x',
      { ...record, schemaVersion: 2 },
      { ...record, audited: -1 },
      { ...record, usage: {} },
    ])
      expect(restoreSessionRecord(bad)).toBeUndefined();
    // A guard state that is not one starts afresh; the rest of the record stands.
    expect(restoreSessionRecord({ ...record, end: { hostile: true } })?.end).toEqual(EMPTY_GUARD_STATE);
  });

  it("gives the turn's start: its own for the same turn, the last turn's end for a new one", () => {
    const restored = restoreSessionRecord(record);
    expect(turnStart(restored, 't1')).toBe(restored?.start);
    expect(turnStart(restored, 't2')).toBe(restored?.end);
    expect(turnStart(undefined, 't2')).toBe(EMPTY_GUARD_STATE);
    expect(turnSoFar(restored, 't2')).toMatchObject({ audited: 0, closed: false });
    expect(turnSoFar(restored, 't1')).toMatchObject({ audited: 3, askedAt: 5 });
  });
});
