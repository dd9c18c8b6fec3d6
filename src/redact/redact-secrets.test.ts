import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';

describe('redactSecrets: the secrets of a tool result, and nothing else', () => {
  it('leaves text without secrets as it was given, paths, URLs, ids and layout included', () => {
    const plain =
      'Order A-1 is PAID.\nSee https://shop.example.com/orders/A-1 or /var/data/orders.csv (host db-1:5432).';
    expect(redactSecrets(plain)).toBe(plain);
    const json = '{"code":0,"data":{"state":"PAID","id":"A-1","email":"ann@example.com"}}';
    expect(redactSecrets(json)).toBe(json);
  });

  it('removes keys, bearer tokens, passwords and credentials in URLs, keeping the rest of the line', () => {
    const text =
      'key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD used; Authorization: Bearer abcdefghijklmnop1234567890; password=hunter22; db postgres://app:s3cretpw@db.internal:5432/app';
    const redacted = redactSecrets(text);
    for (const secret of ['sk-proj-abcdefghij', 'abcdefghijklmnop1234567890', 'hunter22', 's3cretpw'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain('key ');
    expect(redacted).toContain('db.internal:5432/app');
  });

  it('keeps JSON valid: secret-keyed values and secrets inside strings are replaced, the structure kept', () => {
    const json = JSON.stringify({
      user: 'ann',
      apiKey: 'zq8Xv1LmN0pQ7rS2tU9wY4',
      note: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789 expired',
      count: 3,
    });
    const redacted = redactSecrets(json);
    const parsed = JSON.parse(redacted) as Record<string, unknown>;
    expect(parsed.user).toBe('ann');
    expect(parsed.count).toBe(3);
    expect(parsed.apiKey).toMatch(/^\[redacted:/);
    expect(parsed.note).not.toContain('ghp_');
    expect(parsed.note).toContain('expired');
  });

  it('is deterministic: the same text gives the same result every time', () => {
    const text = '{"password":"p4ssw0rd!","items":[1,2,3]}';
    expect(redactSecrets(text)).toBe(redactSecrets(text));
    expect(redactSecrets(redactSecrets(text))).toBe(redactSecrets(text));
  });

  it('sees a secret hidden by invisible characters', () => {
    const redacted = redactSecrets('use sk-proj-\u200Babcdefghijklmnopqrstuvwxyz0123456789ABCD now');
    expect(redacted).not.toContain('abcdefghijklmnopqrstuvwxyz');
  });
});
