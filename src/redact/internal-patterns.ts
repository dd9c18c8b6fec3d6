/**
 * Internals: stack frames (on their own lines, flattened onto one, in .NET, Python and Go form), URLs,
 * ARNs, IP addresses, file paths (Windows, UNC, unix, home and environment-variable roots, quoted
 * paths with spaces), host:port and internal host names.
 */

import { PROSE_WORD_PATTERN } from './prose-words.js';
import { containsAny, containsAnyIgnoringCase, type RedactionPattern } from './redaction-pattern.js';

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

/** Ports that make a bare name (`redis:6379`) a host. */
const WELL_KNOWN_PORTS =
  '21|22|25|53|80|443|587|1433|1521|2181|2379|3000|3306|4222|5000|5432|5672|6379|6443|8000|8080|8443|8888|9000|9042|9092|9200|9300|11211|15672|27017';
const FILE_EXTENSIONS =
  'c|cc|cjs|cpp|cs|css|go|h|html|java|js|json|jsx|kt|md|mjs|php|py|rb|rs|sql|swift|ts|tsx|txt|yaml|yml';

/** `name:port`: a dotted or hyphenated name, a name with a digit (`kafka1`), or a bare name on a known port. */
const HOST_PORT = new RegExp(
  String.raw`(?<![\w.:/\\-])(?:localhost|[A-Za-z][\w-]*(?:\.[\w-]+)+|[A-Za-z]\w*-[\w-]*|[A-Za-z][A-Za-z_]*\d\w*|[A-Za-z]\w*(?=:(?:${WELL_KNOWN_PORTS})(?!\d)))(?<!\.(?:${FILE_EXTENSIONS})):\d{2,5}(?!\d)`,
  'gi',
);

/** Hostnames: three labels or more ending in a known TLD, or two labels or more ending in an internal suffix. */
const PUBLIC_TLDS =
  'com|net|org|io|dev|app|ai|co|cloud|info|biz|xyz|tech|site|online|gov|edu|mil|int|test|example|invalid|uk|de|fr|nl|eu|ca|au|jp|cn|ru|br|ch|se|es|kr|sg|hk|nz|ie|fi|dk|arpa';
const INTERNAL_TLDS =
  'internal|local|localdomain|lan|corp|intranet|intra|svc|localhost|consul|private|priv|k8s|home';
const HOST_LABEL = String.raw`[A-Za-z0-9][\w-]{0,62}`;
const HOSTNAME = new RegExp(
  String.raw`(?<![\w./\\-])(?:(?:${HOST_LABEL}\.){2,16}(?:${PUBLIC_TLDS})|(?:${HOST_LABEL}\.){1,16}(?:${INTERNAL_TLDS}))(?![\w-])`,
  'gi',
);
const HOST_NAME = String.raw`[A-Za-z][\w-]{0,62}(?:\.[\w-]{1,63}){0,16}`;

/** A host named by what the error says of it: `ENOTFOUND x`, `lookup x on`, `dial tcp x:1`, `"host":"x"`. */
const HOST_IN_CONTEXT = new RegExp(
  String.raw`(?<pre>\b(?:ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|UnknownHostException:)[ \t]+)${HOST_NAME}|(?<pre2>\blookup[ \t]+)${HOST_NAME}(?=[ \t]+on[ \t])|(?<pre3>\bdial (?:tcp|udp)[46]?[ \t]+)${HOST_NAME}(?=:\d)|(?<pre4>["']?\b(?:host|hostname|server|servername|upstream)["']?[ \t]*[:=][ \t]*["']?)(?!${PROSE_WORD_PATTERN}|\[redacted:)${HOST_NAME}`,
  'gi',
);

const HEX4 = '[0-9A-Fa-f]{1,4}';
const IPV6 = new RegExp(
  String.raw`(?<![\w:.])(?:(?:${HEX4}:){7}${HEX4}|(?:${HEX4}:){1,7}:(?:${HEX4}(?::${HEX4}){0,6})?|::${HEX4}(?::${HEX4}){0,6})(?![\w:.])`,
  'g',
);

const OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
/** Four octets, but not a version: `firmware 10.2.3.4`, `version 10.3.0.1`. */
const IPV4 = new RegExp(
  String.raw`(?<![\w.])(?<!\b(?:firmware|version|release|build|ver|fw|bios|rev|revision)[ \t:]{1,3})(?:${OCTET}\.){3}${OCTET}(?::\d{1,5})?(?!\w|\.\d)`,
  'gi',
);

const PATH_CHAR = String.raw`[\p{L}\p{N}_.@+=%~$#!&-]`;
/**
 * The last part of a Windows or UNC path: up to a file extension when there is one (so `Q3 Forecast.xlsx`
 * with its space is taken whole), else to the next space.
 */
const LAST_SEGMENT = String.raw`(?:[^\\/\n"'<>|:*?]{0,200}?\.[A-Za-z0-9]{1,6}(?![\w.])|[^\\/\s"'<>|:*?]*)`;

/** Function names of a stack frame: `Object.handler`, `async Promise.all`, `new Foo`, `Timeout.<anonymous>`. */
const FRAME_NAME = String.raw`(?:async |new )?[\w$.<>\[\]*\/-]{1,200}(?: \[as [\w$]{1,100}\])?`;

export const STACK_PATTERNS: readonly RedactionPattern[] = [
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
  // Go: `main.(*Ledger).Post(...)` and, on the next line, `\t/go/src/x/post.go:88 +0x1d4`.
  {
    kind: 'stack',
    pattern: /^[\w.$*()[\]/-]{1,200}\((?:\.\.\.|[^)\n]{0,200})\)\n\t[^\n]*:\d+[^\n]*/gm,
    mayMatch: containsAny('/'),
  },
  // Frames flattened onto one line: `… at fn (/x/y.js:1:2) at …`, Java `at a.B.c(B.java:12)`.
  {
    kind: 'stack',
    pattern: new RegExp(String.raw`(?<![\w$.])at ${FRAME_NAME} ?\([^()\n]{0,300}:\d+\)`, 'g'),
    mayMatch: containsAny('at '),
  },
  // .NET: `at Acme.X.Y(Int32 id) in C:\src\X.cs:line 118`.
  {
    kind: 'stack',
    pattern:
      /(?<![\w$.])at [\w$<>[\]`]{1,200}(?:\.[\w$<>[\]`]{1,200})+\([^()\n]{0,300}\)(?: in [^\n]{1,300}?:line \d+)?/g,
    mayMatch: containsAny('at '),
  },
  // Python frames flattened onto one line.
  {
    kind: 'stack',
    pattern: /File "[^"\n]*", line \d+(?:, in [\w<>.]{1,200})?/g,
    mayMatch: containsAny('File "'),
  },
];

export const LOCATION_PATTERNS: readonly RedactionPattern[] = [
  // Any scheme://... (connection strings, URLs with credentials, query tokens).
  {
    kind: 'url',
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s"'<>`)\]}]*/g,
    mayMatch: containsAny('://'),
  },
  // A JDBC URL without `//` (Oracle's `jdbc:oracle:thin:user/password@host:1521/svc`, `@//host`,
  // `@(DESCRIPTION=…)`, OCI, H2, Derby): a connection location like any scheme://, whole, quoted
  // passwords included. `jdbc:x://` is left to the rule above.
  {
    kind: 'url',
    pattern: /(?<![A-Za-z0-9+.-])jdbc:[a-z][a-z0-9+.-]{0,31}:(?!\/\/)(?:"[^"\n]{0,128}"|[^\s"'<>`])*/gi,
    mayMatch: containsAnyIgnoringCase('jdbc:'),
  },
  {
    kind: 'arn',
    pattern: /\barn:aws[\w-]*:[\w-]*:[\w-]*:\d{0,12}:[^\s"',;)\]}]+/g,
    mayMatch: containsAny('arn:aws'),
  },
];

export const INTERNAL_PATTERNS: readonly RedactionPattern[] = [
  { kind: 'ip', pattern: IPV4, mayMatch: containsAny('.') },
  { kind: 'ip', pattern: IPV6, mayMatch: mayBeIpv6 },
  // A quoted path: everything up to the closing quote, spaces included (`'/Users/Sofia Rossi/…'`).
  {
    kind: 'path',
    pattern:
      /(?<pre>(?<![\w])['"`])(?:[A-Za-z]:[\\/]|\\\\|\/(?=[\p{L}\p{N}_.~-])|~[\w.-]{0,64}\/|%[A-Za-z_]{1,64}%|\$\{?[A-Za-z_]{1,64}\}?[\\/])[^'"`\n]{0,500}?[\\/][^'"`\n]{0,500}?(?=['"`])/gu,
    mayMatch: containsAny('/', '\\'),
  },
  // Windows (C:\..., C:/..., JSON-escaped C:\\...), UNC, then unix absolute, home and environment-variable paths.
  {
    kind: 'path',
    pattern: new RegExp(
      String.raw`(?<![\p{L}\p{N}_])[A-Za-z]:(?:\\{1,2}|\/)(?:[^\\/\n"'<>|:*?]+(?:\\{1,2}|\/))*${LAST_SEGMENT}`,
      'gu',
    ),
    mayMatch: containsAny(':\\', ':/'),
  },
  {
    kind: 'path',
    pattern: new RegExp(
      String.raw`(?<![\\\w])\\{2}(?:\\{2})?[\w.$-]+(?:\\{1,2}(?:[^\\\n"'<>|:*?]+(?=\\)|${LAST_SEGMENT}))+`,
      'g',
    ),
    mayMatch: containsAny('\\\\'),
  },
  {
    kind: 'path',
    pattern: new RegExp(
      String.raw`(?<![\w%$])(?:%[A-Za-z_]{1,64}%|\$\{?[A-Za-z_]{1,64}\}?|\$env:[A-Za-z_]{1,64})(?:(?:\\{1,2}|\/)(?:[^\\/\n"'<>|:*?]+(?=\\|\/)|${LAST_SEGMENT}))+`,
      'g',
    ),
    mayMatch: containsAny('%', '$'),
  },
  {
    kind: 'path',
    pattern: new RegExp(
      String.raw`(?<![\p{L}\p{N}_.~/\\-])(?:~(?:[A-Za-z][\w.-]{0,63})?|\/${PATH_CHAR}+)(?:\/${PATH_CHAR}*)+`,
      'gu',
    ),
    mayMatch: containsAny('/'),
  },
  {
    kind: 'host',
    pattern: HOST_IN_CONTEXT,
    mayMatch: containsAnyIgnoringCase(
      'ENOTFOUND',
      'EAI_AGAIN',
      'EHOSTUNREACH',
      'UnknownHost',
      'lookup',
      'dial ',
      'host',
      'server',
      'upstream',
    ),
  },
  { kind: 'host', pattern: HOST_PORT, mayMatch: (text) => COLON_DIGITS.test(text) },
  { kind: 'host', pattern: HOSTNAME, mayMatch: containsAny('.') },
];
