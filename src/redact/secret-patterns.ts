/**
 * Credentials: provider keys and tokens, `name=value` pairs, connection strings, command-line flags,
 * Authorization schemes, base64 of `user:password`, long hex and random-looking tokens.
 */

import { PROSE_WORD_PATTERN } from './prose-words.js';
import {
  anyCase,
  containsAny,
  containsAnyIgnoringCase,
  ENCODED_RUN_LENGTH,
  HEX_RUN_LENGTH,
  hasEncodedRun,
  hasHexRun,
  hasTokenRun,
  type RedactionPattern,
  TOKEN_RUN_LENGTH,
} from './redaction-pattern.js';
import { SECRET_NAME_HINTS, SECRET_NAME_PATTERN } from './secret-key-words.js';
import { KEY_FILE_VERBS } from './sql-patterns.js';

/** Provider keys and tokens, by the prefix each provider puts on them. */
const PREFIXED_KEYS: readonly (readonly [prefix: string, rest: string])[] = [
  ['sk-', '[A-Za-z0-9_-]{20,}'], // OpenAI sk-, sk-proj-, sk-svcacct-; Anthropic sk-ant-
  ['sk_live_', '[A-Za-z0-9]{10,}'], // Stripe secret, restricted and publishable keys
  ['sk_test_', '[A-Za-z0-9]{10,}'],
  ['rk_live_', '[A-Za-z0-9]{10,}'],
  ['rk_test_', '[A-Za-z0-9]{10,}'],
  ['pk_live_', '[A-Za-z0-9]{10,}'],
  ['pk_test_', '[A-Za-z0-9]{10,}'],
  ['whsec_', '[A-Za-z0-9]{20,}'], // Stripe webhook secret
  ...['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AIPA', 'ANPA', 'ANVA', 'AROA', 'APKA', 'ASCA'].map(
    (prefix) => [prefix, '[A-Z0-9]{16}(?![A-Za-z0-9])'] as const, // AWS key ids
  ),
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((prefix) => [prefix, '[A-Za-z0-9]{20,}'] as const), // GitHub
  ['github_pat_', '[A-Za-z0-9_]{20,}'],
  ['xox', '[abposr]-[A-Za-z0-9-]{10,}'], // Slack
  ['xapp-', '[A-Za-z0-9-]{20,}'],
  ['AIza', '[A-Za-z0-9_-]{30,}'], // Google
  ...['glpat-', 'glrt-', 'glptt-', 'gldt-', 'glcbt-', 'glsoat-', 'glffct-', 'glimt-', 'glagent-'].map(
    (prefix) => [prefix, '[A-Za-z0-9_-]{20,}'] as const, // GitLab personal, runner, trigger, deploy… tokens
  ),
  ['GR1348941', '[A-Za-z0-9_-]{20,}'], // GitLab runner registration token
  ['npm_', '[A-Za-z0-9]{30,}'],
  ['hf_', '[A-Za-z0-9]{30,}'], // Hugging Face
  ['SG.', '[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}'], // SendGrid
  ['key-', '[0-9a-z]{32}(?![A-Za-z0-9])'], // Mailgun (legacy)
  ...['shpat_', 'shpss_', 'shpca_', 'shppa_'].map((prefix) => [prefix, '[a-fA-F0-9]{32}'] as const), // Shopify
  ['pypi-', 'AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}'], // PyPI
  ...['dop_v1_', 'doo_v1_', 'dor_v1_'].map((prefix) => [prefix, '[a-f0-9]{64}'] as const), // DigitalOcean
  ['ATATT3', '[A-Za-z0-9_=-]{20,}'], // Atlassian API token
  ...['hvs.', 'hvb.', 'hvr.'].map((prefix) => [prefix, '[A-Za-z0-9_-]{20,}'] as const), // HashiCorp Vault
  ['PMAK-', '[a-f0-9]{24}-[a-f0-9]{34}'], // Postman
  ['lin_api_', '[A-Za-z0-9]{40}'], // Linear
  ['ntn_', '[A-Za-z0-9]{40,}'], // Notion
  ['dapi', '[0-9a-f]{32}'], // Databricks
  ['gsk_', '[A-Za-z0-9]{48,}'], // Groq
  ['figd_', '[A-Za-z0-9_-]{40,}'], // Figma
  ...['glsa_', 'glc_'].map((prefix) => [prefix, '[A-Za-z0-9_=-]{32,}'] as const), // Grafana
  ['dckr_pat_', '[A-Za-z0-9_-]{27,}'], // Docker Hub
  ...['sq0atp-', 'sq0csp-'].map((prefix) => [prefix, '[A-Za-z0-9_-]{22,}'] as const), // Square
];

const API_KEY = new RegExp(
  `(?<![A-Za-z0-9_-])(?:${PREFIXED_KEYS.map(([prefix, rest]) => `${prefix.replace('.', '\\.')}${rest}`).join('|')})`,
  'g',
);

/** Keys known by their shape rather than a prefix of letters: 32 hex digits and more. */
const HEX_SHAPED_KEY = new RegExp(
  [
    '(?<![A-Za-z0-9_-])(?:AC|SK)[0-9a-f]{32}(?![A-Za-z0-9])', // Twilio account and API key SIDs
    '(?<![A-Za-z0-9_-])[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}(?![A-Za-z0-9])', // Mailgun
  ].join('|'),
  'g',
);
/**
 * Azure AD (Entra ID) client secret: three characters, a digit, `Q~`, then 31 (`7Q~`) to 34 (`8Q~`) of
 * `[A-Za-z0-9_~.-]`, the shape of gitleaks' `azure-ad-client-secret` rule and Microsoft's SEC101/156
 * `AadClientAppSecret`. Its alphabet holds `.`, so a full stop or an ellipsis right after the secret is
 * allowed (gitleaks' rule misses `… secret is abc8Q~….`); any other such character after 34 means a
 * longer run, not this shape.
 */
const AZURE_CLIENT_SECRET =
  /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?=\.*(?![A-Za-z0-9_~.-]))/g;
/** Telegram bot token: the bot's id, `:AA`, and 32 or 33 more. */
const TELEGRAM_BOT_TOKEN = /(?<![\d:])\d{8,10}:AA[A-Za-z0-9_-]{32,33}(?![A-Za-z0-9_-])/g;

/** An Authorization scheme, any case, and its credentials (`Bearer x`, `authorization: basic x`). */
const AUTH_SCHEME = new RegExp(
  String.raw`(?<pre>(?<![A-Za-z0-9_-])(?:${['bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm'].map(anyCase).join('|')})[ \t]+)(?=[a-z]*[A-Z0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}`,
  'g',
);

/** A password in an ODBC, ADO.NET, JDBC or Azure connection string: braced, quoted, or up to the `;`. */
const CONNECTION_STRING_SECRET =
  /(?<pre>(?<![\w])(?:password|pwd|passwd|accountkey|accountname|sharedaccesskey)[ \t]*=[ \t]*)(?:\{(?:[^}\n]|\}\}){0,200}\}|"[^"\n]{0,200}"|'[^'\n]{0,200}'|[^;\n]{1,200}(?=;))/gi;

const QUOTED_OR_WORD = String.raw`(?:'[^'\n]{0,200}'|"[^"\n]{0,200}"|[^\s'"]+)`;
/** Secrets on a command line: `--password x`, `mysql -px`, `redis-cli -a x`, `sshpass -p x`, `curl -u u:p`. */
const COMMAND_LINE_SECRET = new RegExp(
  String.raw`(?<pre>(?<![\w-])--(?:password|passwd|pass|pwd|token|secret|api-key|apikey|auth-token|access-token|client-secret|registration-token|private-key|http-password|proxy-password)(?:[ \t]+|=)|\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?[ \t]-p(?=[^\s-])|\bredis-cli\b[^\n]{0,200}?[ \t]-a[ \t]+|\bsshpass[ \t]+-p[ \t]*|\b(?:curl|wget)\b[^\n]{0,200}?[ \t](?:-u|--user|--proxy-user)[ \t]+)(?!\[redacted:)${QUOTED_OR_WORD}`,
  'gi',
);

/**
 * `name=value` and `name: value` where the name ends with a secret-key word (`DB_PASSWORD`, `x-api-key`),
 * unless what follows the `:` is the message of a validation issue: it starts with a word of
 * prose-words.ts (`password: must be …`, `password: String must contain …`) or repeats the field's name,
 * as yup and class-validator write (`apiKey: apiKey should not be empty`). A key file's name quoted
 * by OpenSSH (`Load key "deploy_key": invalid format`) is not a name. A YAML block scalar
 * (`password: |`) hides its value on the next line.
 */
const KEY_VALUE = new RegExp(
  String.raw`(?<pre>(?<![\w.-])(?<!${KEY_FILE_VERBS}key[ \t]+\\?["'])(?<field>[\w.-]{0,48}?(?:${SECRET_NAME_PATTERN}))\\?["']?[ \t]{0,5}[:=][ \t]{0,5}(?:\n[ \t]{0,20})?)(?!\\?["']?\[redacted:|[{[=]|(?:bearer|basic|token)[ \t]+\[redacted:|(?:yes|no)\b(?![\w-]*\d)|\k<field>[ \t]|${PROSE_WORD_PATTERN})(?:[|>][-+]?[ \t]*\n[ \t]+[^\n]*|\\?"[^"\n]{0,200}"?|\\?'[^'\n]{0,200}'?|[^\s"',;&)}\]]+)`,
  'gi',
);

/**
 * npm's credential keys (`_authToken`, `_auth`, `_password`; yarn 2+'s `npmAuthToken`, `npmAuthIdent`),
 * scoped (`//registry.npmjs.org/:_authToken`) or not: their value is always a secret, whatever word it
 * starts with. After `=` or `:` as in `.npmrc`; after a space as `npm config set`, `.yarnrc` and
 * `yarn config set … to "…"` write it, or on the next line as `npm config get` prints it, where it must
 * hold a digit (so `_authToken is missing` stays). `${NPM_TOKEN}` and npm's `(protected)` are not values.
 */
const NPM_AUTH_NAME = String.raw`(?<![\w-])(?:_auth(?:Token)?|_password|npmAuth(?:Token|Ident))\\?["']?`;
const NPM_AUTH_VALUE = String.raw`(?!\$\{|\(protected\)|\[redacted:)[^\s"'\x60,;]{1,400}`;
const NPM_AUTH = new RegExp(
  String.raw`(?<pre>${NPM_AUTH_NAME}[ \t]*[:=][ \t]*\\?["']?)${NPM_AUTH_VALUE}|(?<pre2>${NPM_AUTH_NAME}(?:[ \t]+(?:to[ \t]+)?|[ \t]*(?:\n|\\n)[ \t]*)\\?["']?)(?=[^\s"'\x60,;]{0,400}\d)${NPM_AUTH_VALUE}`,
  'g',
);

/**
 * Oracle's `user/password@connect_identifier` (or `user/password`, a local connection) where the form is
 * a tool's: on the command line of SQL*Plus, SQL*Loader, Data Pump, exp/imp, RMAN and DGMGRL, and after
 * `userid=`; with an `@` after SQLcl (`sql`), `CONNECT`/`conn` and RMAN's `target`/`catalog`/`auxiliary`
 * (so `target linux/amd64` stays); anywhere else only before a host-like identifier (`@//host`, a TNS
 * descriptor, `@host[:port]/service`), so `actions/checkout@v4` and `@scope/pkg@2.0.0` stay too.
 */
const ORACLE_USER = String.raw`(?:"[^"\n]{1,128}"|[A-Za-z][\w$#]{0,127})`;
const ORACLE_LOGIN = String.raw`${ORACLE_USER}\/(?:"[^"\n]{1,128}"|[^\s@"'<>()/]{1,128})`;
const ORACLE_FLAGS = String.raw`(?:[ \t]+-{1,2}[A-Za-z]+)*`;
const ORACLE_CONNECT_TARGET = String.raw`@(?:\/\/|\(|[A-Za-z0-9][\w-]*(?:\.[\w-]+)*(?::\d{2,5})?\/[\w.$#-])`;
const ORACLE_CREDENTIALS = new RegExp(
  [
    String.raw`(?<pre>\b(?:(?:sqlplus|sqlldr|expdp|impdp|exp|imp|rman|dgmgrl)${ORACLE_FLAGS}[ \t]+(?:(?:target|userid)[ \t]*=?[ \t]*)?|userid[ \t]*=[ \t]*))${ORACLE_LOGIN}(?=@|[\s"')]|$)`,
    String.raw`(?<pre2>\b(?:connect|conn|sql${ORACLE_FLAGS}|target|catalog|auxiliary)[ \t]+)${ORACLE_LOGIN}(?=@)`,
    String.raw`(?<![\w@/.:-])${ORACLE_LOGIN}(?=${ORACLE_CONNECT_TARGET})`,
  ].join('|'),
  'gi',
);

/**
 * Every Oracle login has a `/`, and then either an `@` after it or one of the tools' names (or `userid`)
 * before it: the cheap guard of a slow pattern that any path or URL would otherwise run.
 */
const ORACLE_SLASH = containsAny('/');
const ORACLE_TOOL = /\b(?:sqlplus|sqlldr|expdp|impdp|exp|imp|rman|dgmgrl)\b|userid/i;
const oracleMayMatch = Object.assign(
  (text: string) => ORACLE_SLASH(text) && (text.includes('@') || ORACLE_TOOL.test(text)),
  { literals: ORACLE_SLASH.literals },
);

/** A quoted value right after a secret's name in prose: `password "x" rejected`, `token 'y' expired`. */
const QUOTED_AFTER_NAME =
  /(?<pre>\b(?:password|passphrase|passwd|passcode|pwd|pin|secret|token|api[ _-]?key)[ \t]+)(?:"[^"\n]{1,200}"|'[^'\n]{1,200}')/gi;

/**
 * A run of token characters that could be a secret: 32 or more, or 12 or more with a digit, a capital,
 * `+` or `/` after its first character (so a long word is not one). `secretTokenLength` decides.
 */
const TOKEN_RUN = new RegExp(
  `(?<![A-Za-z0-9+/=_-])(?:(?=[A-Za-z0-9+/=_-]{${TOKEN_RUN_LENGTH}})|(?=[A-Za-z0-9+/=_-][a-z=_-]*[0-9A-Z+/]))[A-Za-z0-9+/=_-]{${ENCODED_RUN_LENGTH},}`,
  'g',
);
/** 32+ characters mixing digits, lower and upper case: AWS secret keys, base64 blobs, random tokens. */
const RANDOM_TOKEN = new RegExp(`^(?=.*[0-9])(?=.*[a-z])(?=.*[A-Z]).{${TOKEN_RUN_LENGTH},}$`);
/** 32+ hex digits of one case, with a letter and a digit: webhook secrets, API keys, AES keys. */
const LONG_HEX = new RegExp(
  `^(?:(?=.*[a-f])(?=.*[0-9])[0-9a-f]{${HEX_RUN_LENGTH},}|(?=.*[A-F])(?=.*[0-9])[0-9A-F]{${HEX_RUN_LENGTH},})$`,
);
const BASE64 = /^[A-Za-z0-9+/]{12,400}={0,2}$/;
const USER_AND_PASSWORD = /^[\x21-\x39\x3b-\x7e]{1,64}:[\x20-\x7e]{1,128}$/;

/** The whole run when it is random-looking, long hex, or base64 of `user:password`; else 0. */
function secretTokenLength(run: string): number {
  if (RANDOM_TOKEN.test(run) || LONG_HEX.test(run)) return run.length;
  if (!BASE64.test(run)) return 0;
  try {
    return USER_AND_PASSWORD.test(atob(run)) ? run.length : 0;
  } catch {
    return 0;
  }
}

export const SECRET_PATTERNS: readonly RedactionPattern[] = [
  {
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)*/g,
    mayMatch: containsAny('eyJ'),
  },
  {
    kind: 'key',
    pattern: API_KEY,
    mayMatch: containsAny(...new Set(PREFIXED_KEYS.map(([prefix]) => prefix))),
  },
  { kind: 'key', pattern: HEX_SHAPED_KEY, mayMatch: (text) => hasHexRun(text, HEX_RUN_LENGTH) },
  { kind: 'key', pattern: AZURE_CLIENT_SECRET, mayMatch: containsAny('Q~') },
  { kind: 'key', pattern: TELEGRAM_BOT_TOKEN, mayMatch: containsAny(':AA') },
  {
    kind: 'secret',
    pattern: AUTH_SCHEME,
    mayMatch: containsAnyIgnoringCase('bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm'),
  },
  {
    kind: 'secret',
    pattern: CONNECTION_STRING_SECRET,
    mayMatch: containsAnyIgnoringCase(
      'password',
      'pwd',
      'passwd',
      'accountkey',
      'accountname',
      'sharedaccesskey',
    ),
  },
  {
    kind: 'secret',
    pattern: COMMAND_LINE_SECRET,
    mayMatch: containsAnyIgnoringCase('--', 'mysql', 'mariadb', 'redis-cli', 'sshpass', 'curl', 'wget'),
  },
  { kind: 'secret', pattern: NPM_AUTH, mayMatch: containsAny('_auth', '_password', 'npmAuth') },
  { kind: 'secret', pattern: ORACLE_CREDENTIALS, mayMatch: oracleMayMatch },
  { kind: 'secret', pattern: KEY_VALUE, mayMatch: containsAnyIgnoringCase(...SECRET_NAME_HINTS) },
  {
    kind: 'secret',
    pattern: QUOTED_AFTER_NAME,
    mayMatch: containsAnyIgnoringCase('pass', 'pwd', 'pin', 'secret', 'token', 'key'),
  },
  // user:password@ without a scheme.
  {
    kind: 'secret',
    pattern: /(?<![^\s"'(<,;=[])[^\s:@/"'<>]{1,64}:[^\s@/"'<>]{1,128}(?=@[A-Za-z0-9[])/g,
    mayMatch: containsAny('@'),
  },
];

/**
 * The credentials in a URL (`scheme://user:password@`, `scheme://token@`), and the Oracle login of a JDBC
 * URL without `//` (`jdbc:oracle:thin:user/password@host…`, `jdbc:oracle:oci:…`), the rest of the URL kept.
 * Not one of `redact`'s rules (they remove every URL): the argument summaries keep a URL and remove only these.
 */
export const URL_CREDENTIALS_PATTERN: RedactionPattern = {
  kind: 'secret',
  pattern: new RegExp(
    [
      String.raw`(?<pre>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/)[^\s/?#@"'<>]+(?<post>@)`,
      `(?<pre2>(?<![A-Za-z0-9+.-])jdbc:[a-z][a-z0-9+.-]{0,31}:(?:[a-z][a-z0-9]{0,15}:)?)${ORACLE_LOGIN}(?=@)`,
    ].join('|'),
    'gi',
  ),
  mayMatch: containsAnyIgnoringCase('://', 'jdbc:'),
};

/** Run last: anything still long and random-looking, or encoded credentials. */
export const TOKEN_PATTERNS: readonly RedactionPattern[] = [
  {
    kind: 'secret',
    pattern: TOKEN_RUN,
    mayMatch: (text) => hasTokenRun(text, TOKEN_RUN_LENGTH) || hasEncodedRun(text, ENCODED_RUN_LENGTH),
    confirm: secretTokenLength,
  },
];
