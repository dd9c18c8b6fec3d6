/**
 * What `redact` looks for, in the order it looks: private keys, stack frames, SQL and database errors,
 * URLs and ARNs, credentials, personal data, addresses, paths and hosts, and last anything long and
 * random-looking. Each file holds one class of rules; see redaction-pattern.ts for what a rule is.
 */

import { INTERNAL_PATTERNS, LOCATION_PATTERNS, STACK_PATTERNS } from './internal-patterns.js';
import { PERSONAL_PATTERNS } from './personal-patterns.js';
import { containsAny, type RedactionPattern } from './redaction-pattern.js';
import { SECRET_PATTERNS, TOKEN_PATTERNS } from './secret-patterns.js';
import { SQL_PATTERNS } from './sql-patterns.js';

export type { RedactionKind, RedactionPattern } from './redaction-pattern.js';

export const REDACTION_PATTERNS: readonly RedactionPattern[] = [
  // PEM private keys, with or without their END line (a truncated key is still a key).
  {
    kind: 'key',
    pattern:
      /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-{0,5}(?:[A-Za-z0-9+/=\s\\:,.]|-(?!----))*(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-{0,5})?/g,
    mayMatch: containsAny('-----BEGIN'),
  },
  ...STACK_PATTERNS,
  ...SQL_PATTERNS,
  ...LOCATION_PATTERNS,
  ...SECRET_PATTERNS,
  ...PERSONAL_PATTERNS,
  ...INTERNAL_PATTERNS,
  ...TOKEN_PATTERNS,
];
