import { describe, expect, it } from 'vitest';
import { sentArgumentValues } from './sent-argument-values.js';

describe('sentArgumentValues', () => {
  it('keeps paths, ids and URLs without credentials, nested too, each also JSON-escaped', () => {
    const sent = JSON.stringify({
      path: 'C:\\data\\q3.csv',
      items: [{ id: 'cus_9s8d7f6g5h4j' }],
      url: 'https://api.acme.io/v1/orders',
    });
    expect(new Set(sentArgumentValues(sent).keep)).toEqual(
      new Set([
        'C:\\data\\q3.csv',
        'C:\\\\data\\\\q3.csv',
        'cus_9s8d7f6g5h4j',
        'https://api.acme.io/v1/orders',
      ]),
    );
  });

  it('keeps no secret: found by the rules, or under a secret key (withheld instead)', () => {
    const key = ['sk', '_live_', '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HK'].join('');
    const sent = JSON.stringify({
      note: key,
      dsn: 'postgres://app:S3cret@db.acme.io/shop',
      auth: { password: 'hunter2', user: 'admin01' },
      cmd: 'mysql -u root -phunter2',
    });
    expect(sentArgumentValues(sent)).toEqual({ keep: [], withhold: ['admin01', 'hunter2'] });
  });

  it('keeps no short value and no lone word (the rules start at such words)', () => {
    expect(sentArgumentValues(JSON.stringify({ a: 'x.csv', b: 'select', c: 'Bearer', d: 42 })).keep).toEqual(
      [],
    );
  });

  it('takes nothing from arguments that are not JSON, and bounds what it takes', () => {
    expect(sentArgumentValues('{"path": "/data/q3.csv"')).toEqual({ keep: [], withhold: [] });
    const many = JSON.stringify(Array.from({ length: 500 }, (_, index) => `/data/file-${index}.csv`));
    expect(sentArgumentValues(many).keep).toHaveLength(32);
  });
});
