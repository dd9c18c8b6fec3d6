/**
 * What `redact` looks for, in the order it looks.
 *
 * Linear time: every pattern is written so that a failed attempt costs a bounded amount of work,
 * or can only start at the beginning of a run of characters (a lookbehind refuses to start inside
 * the run), so a 1 MB hostile string is scanned a constant number of times. Unbounded quantifiers
 * are only followed by something that cannot fail, or by a single disjoint character.
 *
 * Named groups `pre` and `post`, when present, are kept around the marker (`password=[redacted:secret]`).
 * Every pattern has the `g` flag and is only ever used through `String.prototype.replace`.
 */

import type { Literal } from './literal-scanner.js';
import { SECRET_NAME_HINTS, SECRET_NAME_PATTERN } from './secret-key-words.js';

export type RedactionKind =
  | 'key'
  | 'stack'
  | 'sql'
  | 'value'
  | 'url'
  | 'jwt'
  | 'secret'
  | 'email'
  | 'arn'
  | 'ip'
  | 'path'
  | 'host'
  | 'text';

export interface RedactionPattern {
  readonly kind: RedactionKind;
  readonly pattern: RegExp;
  /**
   * A cheap test that is true whenever `pattern` could match. It lets ordinary short text skip most
   * patterns; it must never be false for text the pattern would change.
   */
  readonly mayMatch: (text: string) => boolean;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A guard that is a list of literals: the text must contain one of them. */
type LiteralGuard = ((text: string) => boolean) & { readonly literals: readonly Literal[] };

/** One precompiled alternation of literals: much cheaper than a pattern's full scan. */
const anyOf = (ignoreCase: boolean, needles: readonly string[]): LiteralGuard => {
  const hint = new RegExp(needles.map(escapeRegExp).join('|'), ignoreCase ? 'i' : '');
  const literals = needles.map((text) => ({ text, ignoreCase }));
  return Object.assign((text: string) => hint.test(text), { literals });
};
const containsAny = (...needles: string[]) => anyOf(false, needles);
const containsAnyIgnoringCase = (...needles: string[]) => anyOf(true, needles);
const COLON_DIGITS = /:\d\d/;
/** `::`, or seven colons anywhere: what any IPv6 address needs (linear: indexOf, no backtracking). */
function mayBeIpv6(text: string): boolean {
  if (text.includes('::')) return true;
  let at = -1;
  for (let colons = 0; colons < 7; colons++) {
    at = text.indexOf(':', at + 1);
    if (at === -1) return false;
  }
  return true;
}

const IDENT = String.raw`[\w."\x60\[\]]{1,128}`;
const SQL_REST = String.raw`[^\n]*`;
const SQL_CONTINUATION = String.raw`(?:FROM|WHERE|(?:(?:LEFT|RIGHT|FULL|INNER|CROSS)\s+(?:OUTER\s+)?)?JOIN|ORDER\s+BY|GROUP\s+BY|HAVING|LIMIT|OFFSET|VALUES|SET|RETURNING|UNION|ON\s+CONFLICT)`;
const SQL_CONTINUATION_UPPER = String.raw`(?:\n[ \t]*(?:${SQL_CONTINUATION}|AND|OR)\b[^\n]*)*`;
const SQL_CONTINUATION_ANY = String.raw`(?:\n[ \t]*${SQL_CONTINUATION}\b[^\n]*)*`;
const DDL_OBJECT = 'TABLE|INDEX|VIEW|SCHEMA|DATABASE|SEQUENCE|FUNCTION|PROCEDURE|TRIGGER|EXTENSION|TYPE';

/** Uppercase SQL: the keywords alone are a strong enough signal. */
const SQL_UPPER = new RegExp(
  String.raw`\b(?:SELECT\b[\s\S]{0,200}?\bFROM\b|INSERT\s+(?:IGNORE\s+)?INTO\b|UPDATE\s+\S{1,128}\s+SET\b|DELETE\s+FROM\b|(?:CREATE|DROP|ALTER|TRUNCATE)(?:\s+[A-Z]+){0,3}?\s+(?:${DDL_OBJECT})\b|WITH\s+(?:RECURSIVE\s+)?\S{1,128}\s+AS\s*\(|MERGE\s+INTO\b)${SQL_REST}${SQL_CONTINUATION_UPPER}`,
  'g',
);

/** Any-case SQL (knex, drizzle): needs the shape of a statement, so "please select a file from the list" survives. */
const SQL_ANY_CASE = new RegExp(
  String.raw`\b(?:select\s+(?:distinct\s+)?(?:\*|count\s*\(|["\x60\[]|\w+\.["\x60\w*]|\w+\s*,)[\s\S]{0,200}?\bfrom\b|select\s+\w+\s+from\s+${IDENT}\s+(?:where|join|order|group|limit)\b|insert\s+(?:ignore\s+)?into\s+${IDENT}\s*(?:\(|values\b|select\b|default\b)|update\s+${IDENT}\s+set\s+["\x60\[]?\w|delete\s+from\s+${IDENT}(?=\s*(?:where\b|using\b|returning\b|;|\n|$))|(?:create|drop|alter|truncate)\s+(?:[a-z]+\s+){0,3}?(?:${DDL_OBJECT})\s+(?:if\s+(?:not\s+)?exists\s+)?["\x60\[]|with\s+(?:recursive\s+)?["\x60]?\w{1,128}["\x60]?\s+as\s*\()${SQL_REST}${SQL_CONTINUATION_ANY}`,
  'gi',
);

const API_KEY = new RegExp(
  `(?<![A-Za-z0-9_-])(?:${[
    'sk-[A-Za-z0-9_-]{20,}', // OpenAI sk-, sk-proj-, sk-svcacct-; Anthropic sk-ant-
    '(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}', // Stripe
    'whsec_[A-Za-z0-9]{20,}', // Stripe webhook secret
    '(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}(?![A-Za-z0-9])', // AWS
    'gh[pousr]_[A-Za-z0-9]{20,}', // GitHub
    'github_pat_[A-Za-z0-9_]{20,}',
    'xox[abposr]-[A-Za-z0-9-]{10,}', // Slack
    'AIza[A-Za-z0-9_-]{30,}', // Google
    'glpat-[A-Za-z0-9_-]{20,}', // GitLab
    '(?:npm|hf)_[A-Za-z0-9]{30,}', // npm, Hugging Face
    String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`, // SendGrid
  ].join('|')})`,
  'g',
);

/** `name=value` and `name: value` where the name ends with a secret-key word (`DB_PASSWORD`, `x-api-key`). */
const KEY_VALUE = new RegExp(
  String.raw`(?<pre>(?<![\w.-])[\w.-]{0,48}?(?:${SECRET_NAME_PATTERN})\\?["']?[ \t]{0,5}[:=][ \t]{0,5}(?:\n[ \t]{0,20})?)(?!\\?["']?\[redacted:|[{[=]|(?:bearer|basic|token)[ \t]+\[redacted:|(?:yes|no)\b)(?:\\?"[^"\n]{0,200}"?|\\?'[^'\n]{0,200}'?|[^\s"',;&)}\]]+)`,
  'gi',
);

/** Ports that make a bare name (`redis:6379`) a host. */
const WELL_KNOWN_PORTS =
  '21|22|25|53|80|443|587|1433|1521|2181|2379|3000|3306|4222|5000|5432|5672|6379|6443|8000|8080|8443|8888|9000|9042|9092|9200|9300|11211|15672|27017';
const FILE_EXTENSIONS =
  'c|cc|cjs|cpp|cs|css|go|h|html|java|js|json|jsx|kt|md|mjs|php|py|rb|rs|sql|swift|ts|tsx|txt|yaml|yml';

const HOST_PORT = new RegExp(
  String.raw`(?<![\w.:/\\-])(?:localhost|[A-Za-z][\w-]*(?:\.[\w-]+)+|[A-Za-z]\w*-[\w-]*|[A-Za-z]\w*(?=:(?:${WELL_KNOWN_PORTS})(?!\d)))(?<!\.(?:${FILE_EXTENSIONS})):\d{2,5}(?!\d)`,
  'gi',
);

/** Hostnames: three labels or more ending in a known TLD, or two labels or more ending in an internal suffix. */
const PUBLIC_TLDS =
  'com|net|org|io|dev|app|ai|co|cloud|info|biz|xyz|tech|site|online|gov|edu|mil|int|test|example|invalid|uk|de|fr|nl|eu|ca|au|jp|cn|ru|br|ch|se|es|kr|sg|hk|nz|ie|fi|dk|arpa';
const INTERNAL_TLDS = 'internal|local|localdomain|lan|corp|intranet|svc|localhost';
const HOST_LABEL = String.raw`[A-Za-z0-9][\w-]{0,62}`;
const HOSTNAME = new RegExp(
  String.raw`(?<![\w./\\-])(?:(?:${HOST_LABEL}\.){2,16}(?:${PUBLIC_TLDS})|(?:${HOST_LABEL}\.){1,16}(?:${INTERNAL_TLDS}))(?![\w-])`,
  'gi',
);

const HEX4 = '[0-9A-Fa-f]{1,4}';
const IPV6 = new RegExp(
  String.raw`(?<![\w:.])(?:(?:${HEX4}:){7}${HEX4}|(?:${HEX4}:){1,7}:(?:${HEX4}(?::${HEX4}){0,6})?|::${HEX4}(?::${HEX4}){0,6})(?![\w:.])`,
  'g',
);

const OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
const IPV4 = new RegExp(String.raw`(?<![\w.])(?:${OCTET}\.){3}${OCTET}(?::\d{1,5})?(?!\w|\.\d)`, 'g');

const PATH_CHAR = String.raw`[\p{L}\p{N}_.@+=%~$#!&-]`;

export const REDACTION_PATTERNS: readonly RedactionPattern[] = [
  // PEM private keys, with or without their END line (a truncated key is still a key).
  {
    kind: 'key',
    pattern:
      /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-{0,5}(?:[A-Za-z0-9+/=\s\\:,.]|-(?!----))*(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-{0,5})?/g,

    mayMatch: containsAny('-----BEGIN'),
  },
  // Stack frames: JavaScript/Java "    at fn (/x/y.js:1:2)", Python 'File "/x.py", line 3, in fn' and its code line.
  {
    kind: 'stack',
    pattern: /^(?<pre>[ \t]*at )[^\n]*(?:\)|:\d+|>)[ \t\r]*$/gm,
    mayMatch: containsAny('at '),
  },
  {
    kind: 'stack',
    pattern: /^(?<pre>[ \t]*)File "[^"\n]*", line \d+[^\n]*(?:\n[ \t]+(?![ \t]|File ")[^\n]*)?/gm,

    mayMatch: containsAny('File "'),
  },
  {
    kind: 'sql',
    pattern: SQL_UPPER,
    mayMatch: containsAny(
      'SELECT',
      'INSERT',
      'UPDATE',
      'DELETE',
      'CREATE',
      'DROP',
      'ALTER',
      'TRUNCATE',
      'WITH',
      'MERGE',
    ),
  },
  {
    kind: 'sql',
    pattern: SQL_ANY_CASE,
    mayMatch: containsAnyIgnoringCase(
      'select',
      'insert',
      'update',
      'delete',
      'create',
      'drop',
      'alter',
      'truncate',
      'with',
    ),
  },
  // Row data in database errors.
  {
    kind: 'value',
    pattern: /(?<pre>\bKey \([^)\n]{1,200}\)=\()[^\n]{0,500}?(?=\)(?:[\s.,;]|$))/g,
    mayMatch: containsAny('Key ('),
  },
  {
    kind: 'value',
    pattern: /(?<pre>\bFailing row contains )\([^\n]*/g,
    mayMatch: containsAny('Failing row contains '),
  },
  {
    kind: 'value',
    pattern: /(?<pre>\bDuplicate entry )'[^'\n]{0,500}'?/g,
    mayMatch: containsAny('Duplicate entry '),
  },
  // Any scheme://... (connection strings, URLs with credentials, query tokens).
  {
    kind: 'url',
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s"'<>`)\]}]*/g,
    mayMatch: containsAny('://'),
  },
  {
    kind: 'arn',
    pattern: /\barn:aws[\w-]*:[\w-]*:[\w-]*:\d{0,12}:[^\s"',;)\]}]+/g,
    mayMatch: containsAny('arn:aws'),
  },
  {
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)*/g,
    mayMatch: containsAny('eyJ'),
  },
  {
    kind: 'key',
    pattern: API_KEY,
    mayMatch: containsAny(
      'sk-',
      'sk_',
      'rk_',
      'pk_',
      'whsec_',
      'AKIA',
      'ASIA',
      'ABIA',
      'ACCA',
      'AGPA',
      'AIDA',
      'AIPA',
      'ANPA',
      'ANVA',
      'AROA',
      'APKA',
      'ASCA',
      'ghp_',
      'gho_',
      'ghu_',
      'ghs_',
      'ghr_',
      'github_pat_',
      'xox',
      'AIza',
      'glpat-',
      'npm_',
      'hf_',
      'SG.',
    ),
  },
  {
    kind: 'secret',
    pattern:
      /(?<pre>(?<![A-Za-z0-9_-])(?:[Bb]earer|[Bb]asic|[Tt]oken)[ \t]+)(?=[a-z]*[A-Z0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/g,

    mayMatch: containsAnyIgnoringCase('bearer', 'basic', 'token'),
  },
  {
    kind: 'secret',
    pattern: KEY_VALUE,
    mayMatch: containsAnyIgnoringCase(...SECRET_NAME_HINTS),
  },
  // user:password@ without a scheme.
  {
    kind: 'secret',
    pattern: /(?<![^\s"'(<,;=[])[^\s:@/"'<>]{1,64}:[^\s@/"'<>]{1,128}(?=@[A-Za-z0-9[])/g,
    mayMatch: containsAny('@'),
  },
  {
    kind: 'email',
    pattern: /(?<![\w.+%-])[\w.+%-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z][A-Za-z0-9-]*/g,

    mayMatch: containsAny('@'),
  },
  { kind: 'ip', pattern: IPV4, mayMatch: containsAny('.') },
  { kind: 'ip', pattern: IPV6, mayMatch: mayBeIpv6 },
  // Windows (C:\..., C:/..., JSON-escaped C:\\...), UNC, then unix absolute and home paths.
  {
    kind: 'path',
    pattern:
      /(?<![\p{L}\p{N}_])[A-Za-z]:(?:\\{1,2}|\/)(?:[^\\/\n"'<>|:*?]+(?:\\{1,2}|\/))*[^\\/\s"'<>|:*?]*/gu,

    mayMatch: containsAny(':\\', ':/'),
  },
  { kind: 'path', pattern: /(?<![\\\w])\\\\[\w.$-]+\\[^\s"'<>|]*/g, mayMatch: containsAny('\\\\') },
  {
    kind: 'path',
    pattern: new RegExp(String.raw`(?<![\p{L}\p{N}_.~/\\-])(?:~|\/${PATH_CHAR}+)(?:\/${PATH_CHAR}*)+`, 'gu'),

    mayMatch: containsAny('/'),
  },
  { kind: 'host', pattern: HOST_PORT, mayMatch: (text) => COLON_DIGITS.test(text) },
  { kind: 'host', pattern: HOSTNAME, mayMatch: containsAny('.') },
  // Long random-looking tokens (AWS secret keys, base64 blobs): 32+ characters mixing digits, lower and upper case.
  {
    kind: 'secret',
    pattern:
      /(?<![A-Za-z0-9+/=_-])(?=[A-Za-z+/=_-]*[0-9])(?=[A-Z0-9+/=_-]*[a-z])(?=[a-z0-9+/=_-]*[A-Z])[A-Za-z0-9+/=_-]{32,}/g,

    mayMatch: (text) => hasTokenRun(text, TOKEN_RUN_LENGTH),
  },
];

/** The literals of every guard that is a list of literals. */
export function redactionLiterals(patterns: readonly RedactionPattern[]): Literal[] {
  return patterns.flatMap(({ mayMatch }) => (mayMatch as Partial<LiteralGuard>).literals ?? []);
}

/** The shortest random-looking token the last pattern redacts. */
export const TOKEN_RUN_LENGTH = 32;

/** Whether `length` characters in a row could belong to one random-looking token. */
function hasTokenRun(text: string, length: number): boolean {
  if (text.length < length) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = isTokenCharacter(text.charCodeAt(i)) ? run + 1 : 0;
    if (run >= length) return true;
  }
  return false;
}

/** `[A-Za-z0-9+/=_-]`: what a random-looking token is made of. */
export function isTokenCharacter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 47 && code <= 57) || // '/' and the digits
    code === 43 || // '+'
    code === 61 || // '='
    code === 95 || // '_'
    code === 45 // '-'
  );
}
