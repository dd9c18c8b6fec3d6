import { describe, expect, it } from 'vitest';
import {
  MAX_CLIENT_TOOL_NAME_CHARS,
  NAMESPACE_RULE,
  namespaceOf,
  namespaceToolNames,
} from './namespace-tools.js';

describe('namespaceToolNames', () => {
  it('prefixes each name with the namespace and the separator, both ways', () => {
    const { toClient, toUpstream } = namespaceToolNames('github', '.', ['create_issue', 'list.repos']);
    expect([...toClient]).toEqual([
      ['create_issue', 'github.create_issue'],
      ['list.repos', 'github.list.repos'],
    ]);
    expect(toUpstream.get('github.list.repos')).toBe('list.repos');
    expect(namespaceToolNames('fs', '__', ['read_file']).toClient.get('read_file')).toBe('fs__read_file');
    expect(namespaceToolNames('fs', '_', ['read_file']).toClient.get('read_file')).toBe('fs_read_file');
  });

  it('makes a long name or one with other characters fit: cut, safe characters, a hash, reversible by the table', () => {
    const long = 'x'.repeat(100);
    const odd = 'résumé tool/v2';
    const { toClient, toUpstream } = namespaceToolNames('github', '.', [long, odd, `${'x'.repeat(100)}y`]);
    const names = [...toClient.values()];
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(MAX_CLIENT_TOOL_NAME_CHARS);
      expect(name).toMatch(/^github\.[A-Za-z0-9_.-]+_[0-9a-f]{8}$/);
      expect(toClient.get(toUpstream.get(name) as string)).toBe(name);
    }
    expect(new Set(names).size).toBe(3);
    expect(toClient.get(odd)).toMatch(/^github\.r_sum__tool_v2_[0-9a-f]{8}$/);
  });

  it("gives the same mapping for the same names, and hashes a name that would take another's", () => {
    const first = namespaceToolNames('a', '_', ['b_c', 'b_c']);
    expect([...first.toClient]).toEqual([...namespaceToolNames('a', '_', ['b_c']).toClient]);
    // "x_" + "y" and "x" + "_y"... with one namespace, two names can only meet after hashing: a name of the
    // hashed form is itself taken first, the later one hashed again (different input, different hash).
    const hashed = namespaceToolNames('a', '.', ['é']).toClient.get('é') as string;
    const clash = namespaceToolNames('a', '.', [hashed.slice(2), 'é']);
    expect(clash.toClient.get(hashed.slice(2))).toBe(hashed);
    expect(clash.toClient.get('é')).not.toBe(hashed);
    expect(clash.toClient.size).toBe(2);
  });

  it('finds the namespace before the first separator (a namespace holds neither "." nor "_")', () => {
    expect(namespaceOf('github.create.issue', '.')).toBe('github');
    expect(namespaceOf('fs__read__file', '__')).toBe('fs');
    expect(namespaceOf('.x', '.')).toBeUndefined();
    expect(NAMESPACE_RULE.test('my-server2')).toBe(true);
    for (const bad of ['My', 'a_b', 'a.b', '1a', '', 'a'.repeat(33)])
      expect(NAMESPACE_RULE.test(bad)).toBe(false);
  });
});
