import { describe, expect, it } from 'vitest';
import { type SecretRule, scanArguments, scanResult, scanText } from './secret-scan.js';

const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}xyzw12`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcDEF123';

describe('scanText', () => {
  it('names the rules that matched and replaces each secret with its marker', () => {
    const found = new Set<SecretRule>();
    const text = scanText(`token ${GITHUB_TOKEN} and ${JWT}; db password=hunter2`, found);
    expect([...found].sort()).toEqual(['jwt', 'key', 'secret']);
    expect(text).toBe('token [redacted:key] and [redacted:jwt]; db password=[redacted:secret]');
  });

  it('leaves ordinary text alone: commit hashes, UUIDs, digests, a `key` parameter, a quoted marker', () => {
    const found = new Set<SecretRule>();
    const plain = [
      'commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 merged',
      'id 550e8400-e29b-41d4-a716-446655440000',
      JSON.stringify({ key: 'user:1', pageToken: 'abc', private: false }),
      'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'the log said [redacted:key] already',
    ];
    for (const text of plain) expect(scanText(text, found)).toBe(text);
    expect(found.size).toBe(0);
  });
});

describe('scanArguments', () => {
  it('keeps the arguments JSON, the secret replaced in its string', () => {
    const scan = scanArguments(JSON.stringify({ repo: 'a/b', auth: `Bearer ${GITHUB_TOKEN}` }));
    expect(scan.rules.length).toBeGreaterThan(0);
    expect(JSON.parse(scan.redacted)).toEqual({ repo: 'a/b', auth: expect.stringContaining('[redacted:') });
    expect(scan.redacted).not.toContain(GITHUB_TOKEN);
  });

  it('gives the same text back when there is nothing to find', () => {
    const text = JSON.stringify({ path: '/tmp/a.txt', count: 3 });
    expect(scanArguments(text)).toEqual({ redacted: text, rules: [] });
  });
});

describe('scanResult', () => {
  it('redacts text parts, embedded resources and structured content; images and _meta pass as they are', () => {
    const image = { type: 'image', data: `AKIA${'A'.repeat(16)}`, mimeType: 'image/png' };
    const result = {
      content: [
        { type: 'text', text: `your key: ${GITHUB_TOKEN}` },
        image,
        { type: 'resource', resource: { uri: 'file:///x', text: `jwt ${JWT}` } },
      ],
      structuredContent: { token: GITHUB_TOKEN, n: 1 },
      _meta: { note: GITHUB_TOKEN },
    };
    const scan = scanResult(result);
    expect(scan.rules).toEqual(['key', 'jwt']);
    expect(scan.redacted.content).toEqual([
      { type: 'text', text: 'your key: [redacted:key]' },
      image,
      { type: 'resource', resource: { uri: 'file:///x', text: 'jwt [redacted:jwt]' } },
    ]);
    expect(scan.redacted.structuredContent).toEqual({ token: '[redacted:key]', n: 1 });
    expect(scan.redacted._meta).toBe(result._meta);
  });

  it('hands back the very result when it holds no secret', () => {
    const result = {
      content: [{ type: 'text', text: 'The weather in Paris is 21C.' }],
      structuredContent: { c: 21 },
    };
    expect(scanResult(result).redacted).toBe(result);
  });
});
