import { beforeEach, describe, expect, it, vi } from 'vitest';
import { canonicalArguments } from '../serialize/canonical-json.js';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import { findSharedReads, sharedResult } from './find-shared-reads.js';
import { CallIdentity, type PreparedCall } from './prepare.js';

vi.mock('../serialize/canonical-json.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../serialize/canonical-json.js')>();
  return { ...original, canonicalArguments: vi.fn(original.canonicalArguments) };
});

const tool = (name: string, effect: 'read' | 'write' = 'read'): AnyTool =>
  defineTool({ name, description: 'd', effect, execute: () => null });
const search = tool('search');
const lookup = tool('lookup');
const save = tool('save', 'write');

let ids = 0;
function ready(of: AnyTool, args: string): PreparedCall {
  ids++;
  return {
    type: 'ready',
    call: { id: `c${ids}`, name: of.name, arguments: args },
    identity: new CallIdentity(of.name, args),
    tool: of,
    args: {},
    admitted: true,
    invalid: false,
  };
}

function rejected(of: AnyTool, args: string): PreparedCall {
  ids++;
  return {
    type: 'rejected',
    call: { id: `c${ids}`, name: of.name, arguments: args },
    toolName: of.name,
    code: 'TOOL_CALL_LIMIT',
    errorClass: 'invalid-input',
    text: ['limit'],
    admitted: false,
    invalid: false,
  };
}

beforeEach(() => {
  vi.mocked(canonicalArguments).mockClear();
});

describe('findSharedReads', () => {
  it('canonicalizes nothing for one call, or when no two read calls share a tool', () => {
    expect(findSharedReads([ready(search, '{"q":"a"}')])).toBeUndefined();
    expect(
      findSharedReads([ready(search, '{"q":"a"}'), ready(lookup, '{"q":"a"}'), ready(save, '{"q":"a"}')]),
    ).toBeUndefined();
    expect(findSharedReads([ready(save, '{"q":"a"}'), ready(save, '{"q":"a"}')])).toBeUndefined();
    expect(findSharedReads([ready(search, '{"q":"a"}'), rejected(search, '{"q":"a"}')])).toBeUndefined();
    expect(canonicalArguments).not.toHaveBeenCalled();
  });

  it('canonicalizes only the calls of a read tool called more than once', () => {
    const answeredBy = findSharedReads([
      ready(lookup, '{"id":1}'),
      ready(search, '{"q":"a","n":1}'),
      ready(search, '{ "n": 1.0, "q": "a" }'),
    ]);
    expect(answeredBy).toEqual([0, 1, 1]);
    expect(vi.mocked(canonicalArguments).mock.calls.map(([raw]) => raw)).toEqual([
      '{"q":"a","n":1}',
      '{ "n": 1.0, "q": "a" }',
    ]);
  });

  it('gives undefined when repeated tools got only distinct arguments', () => {
    expect(findSharedReads([ready(search, '{"q":"a"}'), ready(search, '{"q":"b"}')])).toBeUndefined();
  });

  it('points every copy at the first of its kind, refused calls at themselves', () => {
    const answeredBy = findSharedReads([
      ready(search, '{"q":"a"}'),
      rejected(search, '{"q":"a"}'),
      ready(search, '{"q":"b"}'),
      ready(search, '{"q":"a"}'),
      ready(search, '{"q":"b"}'),
    ]);
    expect(answeredBy).toEqual([0, 1, 2, 0, 2]);
  });

  it('compares text that is not JSON as it is, trimmed', () => {
    const answeredBy = findSharedReads([
      ready(search, 'not json'),
      ready(search, '  not json\n'),
      ready(search, 'not  json'),
      ready(search, ''),
      ready(search, '{}'),
    ]);
    expect(answeredBy).toEqual([0, 0, 2, 3, 3]);
  });

  it('handles 10,000 identical calls', () => {
    const prepared = Array.from({ length: 10_000 }, () => ready(search, '{"q":"a"}'));
    const answeredBy = findSharedReads(prepared);
    expect(answeredBy?.[0]).toBe(0);
    expect(answeredBy?.every((first, index) => first === 0 || index === 0)).toBe(true);
  });
});

describe('sharedResult', () => {
  const ran = {
    type: 'success' as const,
    toolCallId: 'c1',
    toolName: 'search',
    content: '[]',
    value: [],
    truncated: false,
    attempts: 2,
    durationMs: 31,
  };

  it('is the result that ran, under its own id, marked and with no attempt of its own', () => {
    expect(sharedResult(ran, 'c7')).toEqual({
      ...ran,
      toolCallId: 'c7',
      attempts: 0,
      durationMs: 0,
      sharedWith: 'c1',
    });
  });

  it('leaves with the call that ran what is its own: the decision on it, who gave it, its contract violation', () => {
    const decided = {
      ...ran,
      approval: 'approved' as const,
      decidedBy: 'alice',
      contractViolation: true as const,
    };
    const shared = sharedResult(decided, 'c7');
    expect(shared).toMatchObject({ toolCallId: 'c7', content: '[]', sharedWith: 'c1' });
    expect(Object.keys(shared)).not.toContain('approval');
    expect(Object.keys(shared)).not.toContain('decidedBy');
    expect(Object.keys(shared)).not.toContain('contractViolation');
  });
});
