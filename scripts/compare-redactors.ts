/**
 * Measures redaction rule sets on the project's corpora (src/redact/__fixtures__): fragments leaked per
 * class of the hostile corpus, benign messages changed, µs per 200-character and 4 KiB message. The
 * candidates other than toolwarden's own rules are not dependencies: install them next to this checkout
 * to run it (`npm install --no-save @secretlint/core@12 @secretlint/secretlint-rule-preset-recommend@12
 * redact-pii @cdssnc/sanitize-pii @redactpii/node libphonenumber-js`); a candidate that is not installed
 * is skipped. Run: `node --import tsx scripts/compare-redactors.ts`.
 */

import { BENIGN_MESSAGES } from '../src/redact/__fixtures__/benign-messages.js';
import {
  HOSTILE_ERROR_MESSAGES,
  type HostileCategory,
} from '../src/redact/__fixtures__/hostile-error-messages.js';
import { leakedFragments } from '../src/redact/__fixtures__/leak-check.js';
import { redactForModel } from '../src/redact/redact.js';

type Redactor = (text: string) => string | Promise<string>;

const CATEGORIES: readonly HostileCategory[] = ['credential', 'encoded', 'database', 'personal', 'internal'];

async function optional(name: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await import(name)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Replaces reported [start, end) ranges, last first, with a marker. */
function replaceRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) {
    const stop = Math.min(end, floor);
    if (start >= stop) continue;
    out = `${out.slice(0, start)}[redacted]${out.slice(stop)}`;
    floor = start;
  }
  return out;
}

async function candidates(): Promise<Array<readonly [string, Redactor]>> {
  const list: Array<readonly [string, Redactor]> = [
    ['toolwarden rules', (text) => redactForModel(text, 100_000)],
  ];
  const core = await optional('@secretlint/core');
  const preset = await optional('@secretlint/secretlint-rule-preset-recommend');
  if (core && preset) {
    const lintSource = core.lintSource as (options: unknown) => Promise<{
      messages: Array<{ range: [number, number] }>;
    }>;
    list.push([
      'secretlint preset-recommend (async)',
      async (content) => {
        const result = await lintSource({
          source: { filePath: '/error.txt', content, contentType: 'text', ext: '.txt' },
          options: {
            config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] },
            noPhysicFilePath: true,
          },
        });
        return replaceRanges(
          content,
          result.messages.map((message) => message.range),
        );
      },
    ]);
  }
  const redactPii = await optional('redact-pii');
  if (redactPii) {
    const SyncRedactor =
      (redactPii.default as Record<string, unknown> | undefined)?.SyncRedactor ?? redactPii.SyncRedactor;
    const redactor = new (SyncRedactor as new () => { redact(text: string): string })();
    list.push(['redact-pii (SyncRedactor)', (text) => redactor.redact(text)]);
  }
  const sanitize = await optional('@cdssnc/sanitize-pii');
  if (sanitize) list.push(['@cdssnc/sanitize-pii', sanitize.sanitizePii as Redactor]);
  const redactpii = await optional('@redactpii/node');
  if (redactpii) {
    const redactor = new (redactpii.Redactor as new () => { redact(text: string): string })();
    list.push(['@redactpii/node', (text) => redactor.redact(text)]);
  }
  const phones = await optional('libphonenumber-js');
  if (phones) {
    const find = phones.findPhoneNumbersInText as (
      text: string,
    ) => Array<{ startsAt: number; endsAt: number }>;
    list.push([
      'libphonenumber-js (phones only)',
      (text) =>
        replaceRanges(
          text,
          find(text).map((found) => [found.startsAt, found.endsAt] as const),
        ),
    ]);
  }
  return list;
}

async function microsPerMessage(redactor: Redactor, texts: readonly string[]): Promise<number> {
  for (const text of texts.slice(0, 20)) await redactor(text);
  const started = performance.now();
  let count = 0;
  while (performance.now() - started < 500) {
    for (const text of texts) await redactor(text);
    count += texts.length;
  }
  return ((performance.now() - started) * 1000) / count;
}

const sized = (length: number) =>
  HOSTILE_ERROR_MESSAGES.map(({ message }) =>
    `${message} `.repeat(Math.ceil(length / message.length)).slice(0, length),
  );

const totals = CATEGORIES.map((category) =>
  HOSTILE_ERROR_MESSAGES.filter((entry) => entry.category === category).reduce(
    (sum, e) => sum + e.secrets.length,
    0,
  ),
);
const rows = [
  `| candidate | ${CATEGORIES.map((c, i) => `${c} (${totals[i]})`).join(' | ')} | benign changed (${BENIGN_MESSAGES.length}) | µs / 200 chars | µs / 4 KiB |`,
  `| --- | ${CATEGORIES.map(() => '---').join(' | ')} | --- | --- | --- |`,
];
for (const [name, redactor] of await candidates()) {
  const leaked = new Map<HostileCategory, number>();
  for (const { category, message, secrets } of HOSTILE_ERROR_MESSAGES) {
    leaked.set(
      category,
      (leaked.get(category) ?? 0) + leakedFragments(await redactor(message), secrets).length,
    );
  }
  let changed = 0;
  for (const { message } of BENIGN_MESSAGES) if ((await redactor(message)) !== message) changed++;
  const short = await microsPerMessage(redactor, sized(200));
  const long = await microsPerMessage(redactor, sized(4096));
  rows.push(
    `| ${name} | ${CATEGORIES.map((c) => leaked.get(c) ?? 0).join(' | ')} | ${changed} | ${short.toFixed(0)} | ${long.toFixed(0)} |`,
  );
}
process.stdout.write(`Fragments leaked per class (of the total in parentheses):\n\n${rows.join('\n')}\n`);
