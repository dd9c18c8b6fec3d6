import { describe, expect, it } from 'vitest';
import { executionLie, historyProblem } from './check-history.js';
import { limitProblem } from './check-limits.js';

const user = { role: 'user', content: 'go' };
const call = (id: unknown, name = 'read_a') => ({ id, name, arguments: '{}' });
const assistant = (...toolCalls: unknown[]) => ({ role: 'assistant', content: '', toolCalls });
const answer = (toolCallId: string, extra: object = {}) => ({
  role: 'tool',
  toolCallId,
  name: 'read_a',
  content: '1',
  isError: false,
  ...extra,
});

describe('historyProblem', () => {
  it('accepts every call answered once, in any order', () => {
    expect(
      historyProblem([user, assistant(call('a'), call('b')), answer('b'), answer('a')], 0),
    ).toBeUndefined();
  });

  it.each([
    [
      'a call without an answer',
      [user, assistant(call('a'), call('b')), answer('a')],
      'a tool call has no tool message',
    ],
    [
      'an answer given twice',
      [user, assistant(call('a')), answer('a'), answer('a')],
      'a tool call is answered twice',
    ],
    [
      'duplicate ids',
      [user, assistant(call('a'), call('a')), answer('a'), answer('a')],
      'duplicate tool call id in one assistant message',
    ],
    [
      'a missing id',
      [user, assistant(call(undefined)), answer('undefined')],
      'a tool call id is not a non-empty string',
    ],
    [
      'a stray tool message',
      [user, answer('a')],
      'a tool message answers no call of the assistant before it',
    ],
    [
      'non-string arguments',
      [
        user,
        { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'x', arguments: {} }] },
        answer('a'),
      ],
      'tool call arguments are not a string',
    ],
  ])('finds %s', (_what, messages, problem) => {
    expect(historyProblem(messages, 0)).toBe(problem);
  });

  it('reads a history whose getters throw as a problem, not a crash', () => {
    const hostile = Object.defineProperty({}, 'role', {
      get() {
        throw new Error('no');
      },
    });
    expect(historyProblem([hostile], 0)).toBe('history unreadable (a getter or trap threw)');
  });

  it('finds a call that ran but is recorded as not executed', () => {
    const messages = [
      user,
      assistant(call('a')),
      answer('a', { isError: true, content: 'INTERNAL_ERROR: The call was not executed.' }),
    ];
    expect(executionLie(messages, 0, new Set(['a']))).toBe('a call that ran is recorded as not executed');
    expect(executionLie(messages, 0, new Set())).toBeUndefined();
  });
});

describe('limitProblem', () => {
  const limits = { perTool: 1, total: 5, tools: new Set(['read_a']) };

  it('counts an earlier call by its assistant call, even when its tool message has no name', () => {
    const earlier = [user, assistant(call('p')), { ...answer('p'), name: undefined }];
    const now = [assistant(call('n')), answer('n')];
    expect(limitProblem([...earlier, ...now], earlier.length, limits)).toBe(
      'a tool ran past its per-turn limit',
    );
  });

  it('accepts a refusal at the limit and finds one below it', () => {
    const refused = answer('n', { isError: true, errorCode: 'TOOL_CALL_LIMIT' });
    expect(
      limitProblem([user, assistant(call('p')), answer('p'), assistant(call('n')), refused], 3, limits),
    ).toBeUndefined();
    expect(limitProblem([user, assistant(call('n')), refused], 1, limits)).toBe(
      'a call was refused by a limit it had not reached',
    );
  });

  it('counts only the current turn', () => {
    const earlierTurn = [user, assistant(call('p')), answer('p')];
    expect(
      limitProblem([...earlierTurn, user, assistant(call('n')), answer('n')], 4, limits),
    ).toBeUndefined();
  });
});
