import { describe, expect, it } from 'vitest';
import { AZURE_CLIENT_SECRET_MESSAGES } from './__fixtures__/azure-client-secrets.js';
import type { BenignMessage } from './__fixtures__/benign-messages.js';
import { BOOKING_REFERENCE_MESSAGES } from './__fixtures__/booking-references.js';
import { CHINESE_NAME_AND_PHONE_MESSAGES } from './__fixtures__/chinese-names-and-phones.js';
import type { HostileErrorMessage } from './__fixtures__/hostile-error-messages.js';
import { leakedFragments } from './__fixtures__/leak-check.js';
import { NPM_AUTH_MESSAGES } from './__fixtures__/npm-auth-lines.js';
import { ORACLE_CREDENTIAL_MESSAGES } from './__fixtures__/oracle-credentials.js';
import { SHORT_SELECT_MESSAGES } from './__fixtures__/short-selects.js';
import { SQL_WORDS_IN_PROSE_MESSAGES } from './__fixtures__/sql-words-in-prose.js';
import { SSH_KEY_FILE_MESSAGES } from './__fixtures__/ssh-key-files.js';
import { VALIDATION_FIELD_NAME_MESSAGES } from './__fixtures__/validation-field-names.js';
import { redact, redactForModel, summarizeArguments } from './redact.js';

/**
 * Classes of text that reached the model, or was changed, on messages the rules had not seen. Each
 * class's cases are also part of the hostile or benign corpus (redaction-corpus.test.ts runs them
 * through every view); here each class is checked on its own, by name.
 */
const LEAK_CLASSES: ReadonlyArray<readonly [string, readonly HostileErrorMessage[]]> = [
  ['Azure AD client secret with no key name', AZURE_CLIENT_SECRET_MESSAGES],
  ['npm token on an .npmrc line', NPM_AUTH_MESSAGES],
  ['user and password in an Oracle connect string', ORACLE_CREDENTIAL_MESSAGES],
  ['short select with no clause', SHORT_SELECT_MESSAGES],
  ['Chinese name next to a phone number', CHINESE_NAME_AND_PHONE_MESSAGES],
];

const BENIGN_CLASSES: ReadonlyArray<readonly [string, readonly BenignMessage[]]> = [
  ['a secret word followed by a validation message is a field name', VALIDATION_FIELD_NAME_MESSAGES],
  ["ssh's quoted key file name", SSH_KEY_FILE_MESSAGES],
  ['SQL verbs in English prose', SQL_WORDS_IN_PROSE_MESSAGES],
  ['a booking reference that looks random', BOOKING_REFERENCE_MESSAGES],
];

const UNCUT = 100_000;
const MEGABYTE = 1_000_000;

describe('redaction on unseen text, by class', () => {
  it.for(LEAK_CLASSES)('leak class "%s": 20 or more cases, no fragment shown', ([, cases]) => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    const leaked = cases.flatMap(({ name, message, secrets }) =>
      [redactForModel(message, UNCUT), redact(message), summarizeArguments(message, UNCUT)].flatMap((shown) =>
        leakedFragments(shown, secrets).map((secret) => ({ name, secret, shown })),
      ),
    );
    expect(leaked).toEqual([]);
  });

  it.for(BENIGN_CLASSES)('false-positive class "%s": 20 or more cases, each unchanged', ([, cases]) => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    for (const { message } of cases) {
      expect(redactForModel(message, UNCUT)).toBe(message);
      expect(redact(message)).toBe(message);
    }
  });
});

describe('the class rules keep their edges', () => {
  it('Azure AD client secret: a full stop may follow it, a longer run is not one', () => {
    const secret = ['Qx3', '8Q~', 'a.B3cD_4eF-5gH6iJ7kL8mN9oP0qR1sT2u'].join('');
    expect(redact(`sent ${secret}.`)).toBe('sent [redacted:key].');
    expect(redact(`sent ${secret}...`)).toBe('sent [redacted:key]...');
    expect(redact(`sent ${secret}x9`)).not.toContain('[redacted:key]');
  });

  it('npm auth keys: a value after a space needs a digit, so prose stays', () => {
    expect(redact('_authToken is missing for //registry.npmjs.org/')).toBe(
      '_authToken is missing for //registry.npmjs.org/',
    );
    expect(redact('npm config set _authToken 0d9a7c3e-6b21')).toBe(
      'npm config set _authToken [redacted:secret]',
    );
  });

  it('user/password@ outside an Oracle tool needs a host-like identifier after the @', () => {
    for (const [text, kept] of [
      ['Unable to resolve action actions/checkout@v4', 'actions/checkout'],
      ['No matching version found for @acme/ui@^2.0.0', 'acme/ui'],
      ['manifest unknown: library/nginx@sha256:4c0fdaa8b6341bfd', 'library/nginx'],
      ['no upstream configured for branch feature/login@{u}', 'feature/login'],
      ['no matching manifest for target linux/amd64', 'linux/amd64'],
      ['ORA-01017: invalid username/password; logon denied', 'username/password'],
      ['Could not connect to/from the replica', 'to/from'],
    ] as const) {
      expect(redactForModel(text, UNCUT), text).toContain(kept);
    }
  });

  it('a mainland mobile number needs Chinese text or a phone word near it', () => {
    expect(redact('Order 13812345678 was not found')).toBe('Order 13812345678 was not found');
    expect(redact('mobile 13812345678 is already registered')).toBe(
      'mobile [redacted:phone] is already registered',
    );
  });

  it('a validation message whose first word holds a digit further on is a value', () => {
    expect(redact('token: no-reply-7fj3k9Qs')).toBe('token: [redacted:secret]');
    expect(redact('password: password123 rejected')).toBe('password: [redacted:secret] rejected');
  });

  it("an IBAN has its country's length: the check digits alone do not make one", () => {
    expect(redact('refund to DE89 3704 0044 0532 0130 00 failed')).toBe('refund to [redacted:iban] failed');
    // BR43… passes mod 97, but a Brazilian IBAN has 29 characters.
    expect(redact('Hotel booking BR43 24E7 8ZR6 J1RC')).toBe('Hotel booking BR43 24E7 8ZR6 J1RC');
  });
});

describe('hostile input of 1 MB for the class rules', () => {
  it.each([
    ['user/password shapes', 'ab/cd@'.repeat(MEGABYTE / 6)],
    ['Oracle tool names', 'sqlplus -s'.repeat(MEGABYTE / 10)],
    ['npm auth keys', '_authToken '.repeat(MEGABYTE / 11)],
    ['JDBC prefixes', 'jdbc:oracle:'.repeat(MEGABYTE / 12)],
    ['Azure markers followed by dots', `abc8Q~${'a'.repeat(31)}${'.'.repeat(MEGABYTE)}`],
    ['select keywords', 'select a('.repeat(MEGABYTE / 9)],
    ['Han names and digits', '张伟13812345678'.repeat(MEGABYTE / 15)],
    ['repeated field names', 'password: password '.repeat(MEGABYTE / 19)],
  ])('%s: every function returns', (_, text) => {
    expect(typeof redact(text)).toBe('string');
    expect(redactForModel(text, 300).length).toBeLessThanOrEqual(300);
    expect(summarizeArguments(text, 200).length).toBeLessThanOrEqual(200);
  });
});
