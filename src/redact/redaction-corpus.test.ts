import { describe, expect, it } from 'vitest';
import { BENIGN_MESSAGES } from './__fixtures__/benign-messages.js';
import { HOSTILE_ERROR_MESSAGES, type HostileCategory } from './__fixtures__/hostile-error-messages.js';
import { KEPT_IN_ARGUMENT_SUMMARIES } from './__fixtures__/kept-in-argument-summaries.js';
import { leakedFragments, leaks } from './__fixtures__/leak-check.js';
import { redact, redactForModel, summarizeArguments } from './redact.js';

/** Large enough that no cut hides a leak: the rules are measured, not the length limit. */
const UNCUT = 100_000;
const CATEGORIES: readonly HostileCategory[] = ['credential', 'encoded', 'database', 'personal', 'internal'];
const FRAGMENTS = HOSTILE_ERROR_MESSAGES.reduce((sum, entry) => sum + entry.secrets.length, 0);

/** Every way an error text reaches a model or a log through redact/: the entry points, each uncut and as shipped. */
const VIEWS: ReadonlyArray<readonly [string, (message: string) => string]> = [
  ['redactForModel', (message) => redactForModel(message, UNCUT)],
  ['redactForModel, cut to 300', (message) => redactForModel(message, 300)],
  ['redact', (message) => redact(message)],
];

/**
 * The argument summaries: what the model sent, for a developer's log. They keep what is not a secret or
 * personal data (paths, hosts, SQL: `KEPT_IN_ARGUMENT_SUMMARIES`), so they are held to that list.
 */
const SUMMARY_VIEWS: ReadonlyArray<readonly [string, (message: string) => string]> = [
  [
    'summarizeArguments of the message as a JSON value',
    (m) => summarizeArguments(JSON.stringify({ m }), UNCUT, UNCUT),
  ],
  ['summarizeArguments of the raw text', (message) => summarizeArguments(message, UNCUT, UNCUT)],
];

describe('the hostile corpus', () => {
  it('has at least 200 messages over every class, each fragment visible in its message', () => {
    expect(HOSTILE_ERROR_MESSAGES.length).toBeGreaterThanOrEqual(200);
    expect(new Set(HOSTILE_ERROR_MESSAGES.map((entry) => entry.name)).size).toBe(
      HOSTILE_ERROR_MESSAGES.length,
    );
    for (const category of CATEGORIES) {
      expect(HOSTILE_ERROR_MESSAGES.filter((entry) => entry.category === category).length).toBeGreaterThan(
        20,
      );
    }
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      expect(secrets.length, name).toBeGreaterThan(0);
      for (const secret of secrets)
        expect({ name, secret, visible: leaks(message, secret) }).toMatchObject({ visible: true });
    }
  });

  it.for(VIEWS)('%s leaks none of the fragments', ([, view], { annotate }) => {
    const leaked = HOSTILE_ERROR_MESSAGES.flatMap(({ name, message, secrets }) =>
      leakedFragments(view(message), secrets).map((secret) => ({ name, secret })),
    );
    void annotate(
      `${leaked.length} of ${FRAGMENTS} fragments leaked, ${HOSTILE_ERROR_MESSAGES.length} messages`,
    );
    expect(leaked).toEqual([]);
  });

  it.for(SUMMARY_VIEWS)(
    '%s leaks no secret and no personal data: only what the summaries keep',
    ([label, view]) => {
      const shown = HOSTILE_ERROR_MESSAGES.flatMap(({ name, message, secrets }) => {
        const leaked = leakedFragments(view(message), secrets);
        return leaked.length === 0 ? [] : [[name, leaked] as const];
      });
      const unexpected = shown.flatMap(([name, leaked]) =>
        leaked
          .filter((secret) => !KEPT_IN_ARGUMENT_SUMMARIES[name]?.includes(secret))
          .map((secret) => ({ name, secret })),
      );
      expect(unexpected).toEqual([]);
      // The list stays true: as a JSON value, each message keeps exactly what it says.
      if (label.includes('JSON value')) expect(Object.fromEntries(shown)).toEqual(KEPT_IN_ARGUMENT_SUMMARIES);
    },
  );

  it('keeps the leak check strict: exact, any case, without whitespace, letters and digits only', () => {
    expect(leaks('key: Hunter2', 'hunter2')).toBe(true);
    expect(leaks('je7MtG\nbClwBF', 'je7MtGbClwBF')).toBe(true);
    expect(leaks('card 4111-1111-1111-1111', '4111 1111 1111 1111')).toBe(true);
    expect(leaks('Jürgen, Müller', 'Jürgen Müller')).toBe(true);
    expect(leaks('[redacted:secret]', 'hunter2')).toBe(false);
  });

  it('redacts each message to a fixed point', () => {
    for (const { name, message } of HOSTILE_ERROR_MESSAGES) {
      const once = redact(message);
      expect({ name, twice: redact(once) }).toEqual({ name, twice: once });
      expect(once, name).toContain('[redacted:');
    }
  });
});

describe('the benign corpus', () => {
  it('has at least 60 messages in several languages', () => {
    expect(BENIGN_MESSAGES.length).toBeGreaterThanOrEqual(60);
    expect(BENIGN_MESSAGES.filter(({ message }) => /[^ -~]/.test(message)).length).toBeGreaterThan(10);
  });

  it.for([
    ['redactForModel', (message: string) => redactForModel(message, UNCUT)],
    ['redact', (message: string) => redact(message)],
  ] as const)('%s changes at most 2% of it, and only as documented', ([, view], { annotate }) => {
    const changed = BENIGN_MESSAGES.filter(({ message }) => view(message) !== message);
    void annotate(`${changed.length} of ${BENIGN_MESSAGES.length} benign messages changed`);
    for (const { message, shownAs } of changed)
      expect({ message, shown: view(message) }).toEqual({ message, shown: shownAs });
    expect(changed.length / BENIGN_MESSAGES.length).toBeLessThanOrEqual(0.02);
  });

  it('reaches a developer log unchanged as an argument value', () => {
    for (const { message } of BENIGN_MESSAGES) {
      const json = JSON.stringify({ note: message });
      // Uncut values too: a benign message longer than a summary's value limit is cut, not changed.
      expect(summarizeArguments(json, UNCUT, UNCUT)).toBe(json);
    }
  });
});
