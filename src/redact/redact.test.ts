import { describe, expect, it } from 'vitest';
import { holdsSecret, redact, redactForModel, sanitizeName, summarizeArguments } from './redact.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';

const MEGABYTE = 1_000_000;

describe('redact', () => {
  it.each([
    ['SQL to the end of the line', 'Query failed: SELECT * FROM users WHERE id = 7\nnext line', 'sql'],
    ['knex-style lowercase SQL', 'delete from "sessions" where "user_id" = $1', 'sql'],
    ['uppercase SQL without quotes', 'Query: SELECT name FROM accounts', 'sql'],
    ['uppercase DDL', 'migration failed: CREATE TABLE payroll (id int)', 'sql'],
    ['a connection string', 'cannot reach mysql://app:pw@db:3306/shop', 'url'],
    ['any scheme', 'amqp://guest:guest@rabbit.local:5672/vhost refused', 'url'],
    ['a JWT', 'bad token eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', 'jwt'],
    ['an OpenAI key', 'key sk-abcdefghijklmnopqrstuvwx12 rejected', 'key'],
    ['an AWS access key id', 'id AKIAABCDEFGHIJKLMNOP denied', 'key'],
    ['a PEM block', '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n-----END EC PRIVATE KEY-----', 'key'],
    ['a bearer token', 'sent Bearer abc.DEF-123_456 upstream', 'secret'],
    ['a password pair', 'DB_PASSWORD=letmein', 'secret'],
    ['a token pair', 'token: t0k3n-value', 'secret'],
    ['credentials without a scheme', 'push as ci:pa55word@registry.acme.io failed', 'secret'],
    ['an api_key pair', 'retry with api_key=12345abc', 'secret'],
    ['an email', 'mail to ops-team+alerts@mail.example.co.uk failed', 'email'],
    ['an IPv4 address', 'peer 192.168.0.12 reset', 'ip'],
    ['an IPv6 address', 'peer fe80::1ff:fe23:4567:890a reset', 'ip'],
    ['a host:port', 'connect to redis-cache:6379 failed', 'host'],
    ['a hostname with two dots', 'lookup db-01.internal.corp.net failed', 'host'],
    ['a unix path', 'cannot open /var/lib/app/data.db', 'path'],
    ['a home path', 'cannot open ~/notes/todo.md', 'path'],
    ['a windows path', 'cannot open C:\\data\\app.db', 'path'],
    ['a stack frame', 'boom\n    at handler (/srv/app/index.js:3:9)', 'stack'],
    ['a Python frame', 'Traceback:\n  File "/srv/app/main.py", line 3, in run', 'stack'],
    ['an ARN', 'denied for arn:aws:iam::111122223333:role/admin', 'arn'],
    ['row data in a database error', 'Key (ssn)=(078-05-1120) already exists.', 'value'],
    ['a long random token', 'value 9Xk2Lm0pQr7StUv4WxYz1Ab3Cd5Ef6Gh8Ij', 'secret'],
  ])('redacts %s', (_, text, kind) => {
    expect(redact(text)).toContain(`[redacted:${kind}]`);
  });

  it.each([
    'duplicate key value violates a unique constraint',
    'Order 42 is already shipped',
    'config.json not allowed',
    'e.g. use settings.yaml instead, i.e. the default',
    'Please select a file from the list',
    'Failed to update order 42: already cancelled',
    'Insert into queue failed',
    'Token verification failed',
    'Password must be at least 8 characters',
    'Basic authentication is not enabled',
    'max_tokens: 4096 exceeds the limit',
    'requires node 20.1.0 or later',
    'meeting at 12:30:45 UTC',
    'std::vector<int> out of range',
    'os.path.join got None',
    'java.lang.NullPointerException: name',
    'report.final.pdf is too large',
    'src/app/main.ts and/or lib/util.ts',
    'Quantity must be between 1 and 100 (got 250)',
    'at least one item is required',
    'SKU ABC-12345 is out of stock',
    'expected string, received number at path items.0.price',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redact(text)).toBe(text);
  });

  it('keeps the message around a redacted value', () => {
    expect(
      redact(
        'duplicate key value violates unique constraint "users_email_key"\nKey (email)=(a@b.io) already exists.',
      ),
    ).toBe(
      'duplicate key value violates unique constraint [redacted:identifier]\nKey (email)=([redacted:value]) already exists.',
    );
    expect(redact('password=hunter2 is wrong')).toBe('password=[redacted:secret] is wrong');
    expect(redact('Authorization: Bearer abcDEF123456')).toBe('Authorization: Bearer [redacted:secret]');
  });

  it('redacts a private key even when it is cut off', () => {
    const out = redact(
      'bad key -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUA\nAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz',
    );
    expect(out).toBe('bad key [redacted:key]');
  });

  it('sees through zero-width characters', () => {
    expect(redact('pass\u200Bword=hunter2')).toBe('password=[redacted:secret]');
  });

  it('uses only global patterns (a non-global one would stop at the first match)', () => {
    for (const { pattern } of REDACTION_PATTERNS) expect(pattern.flags).toContain('g');
    expect(redact('a@x.io b@y.io c@z.io')).toBe('[redacted:email] [redacted:email] [redacted:email]');
  });
});

describe('redactForModel', () => {
  it('drops everything from the first stack frame on', () => {
    const error = new Error('Order 42 is already shipped');
    error.stack = `Error: Order 42 is already shipped\n    at ship (/srv/app/orders.js:10:5)\nafter the frames`;
    expect(redactForModel(error.stack, 300)).toBe('Error: Order 42 is already shipped');
  });

  it('keeps a first line that merely starts with "at"', () => {
    expect(redactForModel('at least one item is required\n    at check (/x/y.js:1:2)', 300)).toBe(
      'at least one item is required',
    );
  });

  it('puts the message on one line without control characters', () => {
    expect(redactForModel('  invalid\r\n\tinput\u0000\u001B[31m here \u202Enow\u0007  ', 300)).toBe(
      'invalid input[31m here now',
    );
  });

  it('redacts what joining lines brings together', () => {
    expect(redactForModel('Bearer\nabcDEF123456ghi', 300)).toBe('Bearer [redacted:secret]');
  });

  it('cuts to maxChars with a trailing ellipsis, and only when needed', () => {
    const long = redactForModel('word '.repeat(200), 50);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long.endsWith('…')).toBe(true);
    expect(redactForModel('short message', 50)).toBe('short message');
    expect(redactForModel('exactly ten', 11)).toBe('exactly ten');
    expect(redactForModel('anything', 0)).toBe('');
  });

  it('redacts before cutting, so a cut never shows half a secret', () => {
    const key = 'sk-proj-Xy9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT';
    for (const limit of [295, 300, 305, 310, 320]) {
      const shown = redactForModel(`${'x'.repeat(290)} ${key} and more`, limit);
      expect(shown.length).toBeLessThanOrEqual(limit);
      expect(shown).not.toContain('sk-');
      expect(shown).not.toContain('[redacted:k…');
    }
  });

  it('never ends in a split marker or a lone surrogate', () => {
    const shown = redactForModel(`${'x'.repeat(20)} password=hunter2`, 35);
    expect(shown).toBe(`${'x'.repeat(20)} password=…`);
    expect(redactForModel('😀😀😀😀😀😀', 4)).toBe('😀…');
  });

  it('says a repeated marker once', () => {
    const frames = [
      'Traceback (most recent call last):',
      '  File "/a.py", line 1, in a',
      '  File "/b.py", line 2, in b',
    ];
    expect(redactForModel([...frames, 'ValueError: bad input'].join('\n'), 300)).toBe(
      'Traceback (most recent call last): [redacted:stack] ValueError: bad input',
    );
  });
});

describe('redactForModel with values the model sent (keep)', () => {
  it('shows a kept value where it stands alone, and redacts the rest as before', () => {
    const text = "ENOENT: open '/data/q3.csv': not in /srv/app, see /data/q3.csv.";
    expect(redactForModel(text, 300)).toBe(
      "ENOENT: open '[redacted:path]': not in [redacted:path], see [redacted:path]",
    );
    expect(redactForModel(text, 300, ['/data/q3.csv'])).toBe(
      "ENOENT: open '/data/q3.csv': not in [redacted:path], see /data/q3.csv.",
    );
  });

  it('does not keep a value glued to more of a token: the whole token, which the model did not send, is judged', () => {
    expect(redactForModel('open /srv/app/data/q3.csv.bak', 300, ['/data/q3.csv', 'data/q3.csv'])).toBe(
      'open [redacted:path]',
    );
    expect(redactForModel('login failed for admin01:Tr0ub4dor@db.acme.io', 300, ['admin01'])).not.toContain(
      'Tr0ub4dor',
    );
    // Swallowed by a rule (a URL around it): it stays redacted with the URL.
    expect(redactForModel('GET https://acme.io/files/report-7 failed', 300, ['report-7'])).toBe(
      'GET [redacted:url] failed',
    );
  });

  it('shows a kept value on one line, without invisible characters; a text with placeholder characters keeps nothing', () => {
    expect(redactForModel('no file a\u202Eb\nc.txt here', 300, ['a\u202Eb\nc.txt'])).toBe(
      'no file ab c.txt here',
    );
    expect(redactForModel('\uE000 open /data/q3.csv', 300, ['/data/q3.csv'])).toBe(
      '\uE000 open [redacted:path]',
    );
  });
});

describe('holdsSecret', () => {
  it.each([
    ['an API key', ['sk', '_live_', '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HK'].join('')],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ'],
    ['a password pair', 'password=hunter2'],
    ['credentials in a URL', 'postgres://app:S3cret@db.acme.io/shop'],
    ['a token as the user of a URL', 'https://ghtoken123@github.com/acme/repo'],
    ['a random token', 'Xk9fQ2mZ7pL4sR8vT1wY6nB3cD5eH0jA'],
    ['a percent-encoded password pair', 'password%3Dhunter2'],
    ['an Oracle login in a JDBC thin URL', 'jdbc:oracle:thin:hr_batch/Wint3r#2024@db-host:1521/ORCLPDB1'],
  ])('finds %s', (_label, value) => {
    expect(holdsSecret(value)).toBe(true);
  });

  it.each([
    ['a path with a random temporary folder', '/tmp/tw-proxy-fs-Ixwz8H/no-such-file.txt'],
    ['a URL without credentials', 'https://api.acme.io/v1/orders?page=2'],
    ['a JDBC thin URL without a login', 'jdbc:oracle:thin:@//db-host:1521/ORCLPDB1'],
    ['an id', 'cus_9s8d7f6g5h4j'],
    ['a UUID', '550e8400-e29b-41d4-a716-446655440000'],
    ['a sentence', 'the quick brown fox'],
  ])('finds none in %s', (_label, value) => {
    expect(holdsSecret(value)).toBe(false);
  });
});

describe('summarizeArguments', () => {
  it('redacts a password value', () => {
    const summary = summarizeArguments('{"password":"hunter2"}', 200);
    expect(summary).not.toContain('hunter2');
    expect(summary).toBe('{"password":"[redacted:secret]"}');
  });

  it.each([
    ['apiKey'],
    ['api_key'],
    ['client_secret'],
    ['Authorization'],
    ['auth'],
    ['key'],
    ['private_key'],
    ['credentials'],
    ['accessToken'],
    ['x-session-token'],
    ['passphrase'],
    ['cvv'],
    ['ssn'],
    ['jwt'],
    ['otp'],
    ['pin'],
    ['csrftoken'],
    ['cookie'],
    ['DB_PASSWORD'],
  ])('redacts the value of %s', (key) => {
    const summary = summarizeArguments(`{"${key}": "v4lue-Q", "city": "Paris"}`, 200);
    expect(summary).not.toContain('v4lue-Q');
    expect(summary).toContain('"city": "Paris"');
  });

  it('keeps ordinary arguments readable', () => {
    expect(summarizeArguments('{"query": "red shoes", "max_tokens": 5, "monkey": "george"}', 200)).toBe(
      '{"query": "red shoes", "max_tokens": 5, "monkey": "george"}',
    );
  });

  it('works on broken JSON and scalar values', () => {
    expect(summarizeArguments('{"password": "hunt', 200)).not.toContain('hunt');
    expect(summarizeArguments('{"pin": 123456, "token": null', 200)).toBe(
      '{"pin": [redacted:secret], "token": [redacted:secret]',
    );
    expect(summarizeArguments('{"note": "a \\"quoted\\" word", "secret": "s\\"x"}', 200)).toBe(
      '{"note": "a \\"quoted\\" word", "secret": "[redacted:secret]"}',
    );
  });

  it('removes personal data and the credentials of a URL, keeping the rest of it', () => {
    const summary = summarizeArguments('{"to": "jane@acme.io", "url": "https://u:p@api.acme.io/x"}', 200);
    expect(summary).toBe('{"to": "[redacted:email]", "url": "https://[redacted:secret]@api.acme.io/x"}');
  });

  it('keeps what a developer needs: paths, ids, numbers, hosts, a URL without credentials', () => {
    const args = {
      path: '/home/deploy/reports/q3.csv',
      id: 'cus_9s8d7f6g5h4j',
      uuid: '550e8400-e29b-41d4-a716-446655440000',
      count: 3,
      host: 'db.internal:5432',
      url: 'https://api.acme.io/v1/orders?page=2',
    };
    expect(summarizeArguments(JSON.stringify(args), 400)).toBe(JSON.stringify(args));
  });

  it('removes a secret by its shape under any key, and a credential inside a longer value', () => {
    const key = ['sk', '_live_', '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HK'].join('');
    expect(summarizeArguments(JSON.stringify({ note: key, cmd: 'mysql -u root -phunter2 shop' }), 200)).toBe(
      '{"note":"[redacted:key]","cmd":"mysql -u root -p[redacted:secret] shop"}',
    );
  });

  it('cuts each long value, so the values after it still show', () => {
    const summary = summarizeArguments(
      JSON.stringify({ content: 'x'.repeat(5_000), path: '/tmp/out.txt' }),
      200,
    );
    expect(summary).toBe(`{"content":"${'x'.repeat(99)}…","path":"/tmp/out.txt"}`);
  });

  it('redacts text that is not JSON like error text', () => {
    expect(summarizeArguments('open /home/deploy/q3.csv', 200)).toBe('open [redacted:path]');
  });

  it('strips control characters and cuts long input', () => {
    expect(summarizeArguments('{"a":\n\t"b\u0000c"}', 200)).toBe('{"a": "bc"}');
    const long = summarizeArguments(JSON.stringify({ text: 'lorem ipsum '.repeat(100) }), 80);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith('…')).toBe(true);
    expect(long.startsWith('{"text":"lorem ipsum')).toBe(true);
  });
});

describe('sanitizeName', () => {
  it('turns an empty name into (empty)', () => {
    expect(sanitizeName('')).toBe('(empty)');
    expect(sanitizeName('\u0000\u200B\u202E\t\n')).toBe('(empty)');
  });

  it('keeps an ordinary name as it is', () => {
    expect(sanitizeName('get_weather-v2')).toBe('get_weather-v2');
  });

  it('cuts a 10,000-character name to 64 characters', () => {
    const shown = sanitizeName('a'.repeat(10_000));
    expect(shown).toHaveLength(64);
    expect(shown).toBe(`${'a'.repeat(63)}…`);
    expect(sanitizeName('abcdefghij', 5)).toBe('abcd…');
  });

  it('removes C0 and C1 control characters', () => {
    expect(sanitizeName('get\u0000_\u001Bweather\u007F\u0085\u009B\r\n')).toBe('get_weather');
  });

  it('removes bidi overrides, isolates and zero-width characters', () => {
    expect(sanitizeName('\u202Aa\u202Bb\u202Cc\u202Dd\u202Ee\u2066f\u2067g\u2068h\u2069i')).toBe('abcdefghi');
    expect(sanitizeName('zero\u200Bwidth\u200C\u200D\u2060\uFEFFname')).toBe('zerowidthname');
  });

  it('removes invisible tag characters and lone surrogates', () => {
    expect(sanitizeName('ok\u{E0049}\u{E0047}\uD800\uDC00x\uDFFF')).toBe('ok\uD800\uDC00x');
  });
});

describe('hostile input of 1 MB', () => {
  const hostile: ReadonlyArray<readonly [string, string]> = [
    ['letters', 'a'.repeat(MEGABYTE)],
    ['at signs', '@'.repeat(MEGABYTE)],
    ['dotted letters', 'a.'.repeat(MEGABYTE / 2)],
    ['dashes', '-'.repeat(MEGABYTE)],
    ['colons', ':'.repeat(MEGABYTE)],
    ['slashes', '/a'.repeat(MEGABYTE / 2)],
    ['emails without a dot', 'a@'.repeat(MEGABYTE / 2)],
    ['SQL keywords', 'SELECT '.repeat(MEGABYTE / 7)],
    ['PEM headers', '-----BEGIN PRIVATE KEY-----'.repeat(MEGABYTE / 27)],
    ['key-value prefixes', 'Key (a)=('.repeat(MEGABYTE / 9)],
    ['one long line of frames', ` at x(${'('.repeat(MEGABYTE)}`],
    ['quotes', '"a":"'.repeat(MEGABYTE / 5)],
  ];

  it.each(hostile)('%s: every function returns', (_, text) => {
    expect(typeof redact(text)).toBe('string');
    expect(redactForModel(text, 300).length).toBeLessThanOrEqual(300);
    expect(summarizeArguments(text, 200).length).toBeLessThanOrEqual(200);
    const name = sanitizeName(text);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name.endsWith('…')).toBe(true);
  });

  it.each([
    ['a', MEGABYTE],
    ['@', MEGABYTE],
    ['a.', MEGABYTE / 2],
    ['-', MEGABYTE],
  ] as const)('%s repeated comes back untouched, not withheld', (unit, times) => {
    const text = unit.repeat(times);
    expect(redact(text)).toBe(text);
    expect(redactForModel(text, 300)).toBe(`${text.slice(0, 299)}…`);
  });
});
