import { describe, expect, it } from 'vitest';
import { truncateText } from '../serialize/truncate-text.js';
import { callDigest, callFingerprint, hash53, resultDigest, resultFingerprint } from './fingerprint.js';
import { resolveHints } from './loop-hints.js';

const noHints = resolveHints(undefined, undefined);

describe('hash53', () => {
  it('is a deterministic safe integer that tells texts apart', () => {
    expect(Number.isSafeInteger(hash53('a'))).toBe(true);
    expect(hash53('getPrice#{"sku":"X-1"}')).toBe(hash53('getPrice#{"sku":"X-1"}'));
    expect(hash53('a')).not.toBe(hash53('b'));
    expect(hash53('')).not.toBe(hash53(' '));
  });
});

describe('call fingerprints: what the model asked', () => {
  it('ignore key order, number spelling and whitespace between JSON tokens', () => {
    expect(callFingerprint('t', '{"q": "a", "n": 1.0}')).toBe(callFingerprint('t', '{"n":1,"q":"a"}'));
  });

  it('keep whitespace inside string values (YAML, code, SQL are content)', () => {
    const prints = ['spec:\n  port: 8080', 'spec:\n    port: 8080', 'spec:\n\tport: 8080'].map((text) =>
      callFingerprint('replaceLines', JSON.stringify({ text })),
    );
    expect(new Set(prints).size).toBe(3);
    expect(callFingerprint('sql', '{"q":"\'a  b\'"}')).not.toBe(callFingerprint('sql', '{"q":"\'a b\'"}'));
  });

  it('tell tools apart, and read empty arguments as {}', () => {
    expect(callDigest('a', '{}')).not.toBe(callDigest('b', '{}'));
    expect(callDigest('a', '')).toBe(callDigest('a', '{}'));
  });
});

describe('result fingerprints: what the model saw', () => {
  it('leave out the truncation marker: two results that look the same to the model are the same', () => {
    const a = truncateText(`${'x'.repeat(200)}${'a'.repeat(103)}`, 157).text;
    const b = truncateText(`${'x'.repeat(200)}${'b'.repeat(109)}`, 157).text;
    expect(a).not.toBe(b);
    expect(resultDigest(a, noHints).digest).toBe(resultDigest(b, noHints).digest);
  });

  it('leave out the default volatile fields at any depth, in any spelling', () => {
    const a = '{"status":"pending","checkedAt":"2026-12-01T10:00:00Z","meta":{"request_id":"r1"}}';
    const b = '{"meta":{"request_id":"r2"},"status":"pending","checkedAt":"2026-12-01T10:00:05Z"}';
    expect(resultFingerprint(a)).toBe(resultFingerprint(b));
    expect(resultFingerprint(a)).not.toBe(resultFingerprint('{"status":"done","checkedAt":"x"}'));
  });

  it("leave out a tool's own fields, and array order when the tool says it does not count", () => {
    expect(resultFingerprint('{"v":1,"seq":1}', { ignoreFields: ['seq'] })).toBe(
      resultFingerprint('{"v":1,"seq":2}', { ignoreFields: ['seq'] }),
    );
    expect(resultFingerprint('[1,2,3]', { unordered: true })).toBe(
      resultFingerprint('[3,1,2]', { unordered: true }),
    );
    expect(resultFingerprint('[1,2,3]')).not.toBe(resultFingerprint('[3,1,2]'));
  });

  it('take text that is not JSON as it is', () => {
    expect(resultFingerprint('{"checkedAt": broken')).toBe(resultFingerprint('{"checkedAt": broken'));
    expect(resultFingerprint('{"checkedAt": broken')).not.toBe(resultFingerprint('{"checkedAt": other'));
  });

  it('say whether the result carries content: verdicts, acks and empties do not', () => {
    expect(resultDigest('{"available":false}', noHints).content).toBe(false);
    expect(resultDigest('[]', noHints).content).toBe(false);
    expect(resultDigest(JSON.stringify({ hits: ['a'.repeat(60), 'b'.repeat(60)] }), noHints).content).toBe(
      true,
    );
  });
});
