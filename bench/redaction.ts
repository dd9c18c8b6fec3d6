import { redactForModel, summarizeArguments } from '../dist/redact/redact.js';
import { HOSTILE_ERROR_MESSAGES } from '../src/redact/__fixtures__/hostile-error-messages.js';
import { compare, formatRow, type Subject } from './measure.js';

type RedactForModel = (text: string, maxChars: number) => string;
type SummarizeArguments = (text: string, maxChars: number) => string;

/** Every hostile message of the corpus cut or padded to `length` characters (padding: ordinary words). */
function errorsOf(length: number): string[] {
  return HOSTILE_ERROR_MESSAGES.map(({ message }) => {
    let text = message;
    while (text.length < length)
      text += ` ${text.length % 3 === 0 ? 'while processing the request' : message}`;
    return text.slice(0, length);
  });
}

const SHORT = errorsOf(200);
const LONG = errorsOf(4096);
/** The chain's success path: the argument summary of an ordinary call. */
const ARGUMENTS = '{"a": 20, "b": 22}';

function messages(name: string, redact: RedactForModel, texts: readonly string[]): Subject {
  let sink = 0;
  return {
    name,
    async run(n) {
      for (let i = 0; i < n; i++) sink += redact(texts[i % texts.length] as string, 300).length;
      if (sink < 0) throw new Error('unreachable');
    },
  };
}

function summaries(name: string, summarize: SummarizeArguments): Subject {
  let sink = 0;
  return {
    name,
    async run(n) {
      for (let i = 0; i < n; i++) sink += summarize(ARGUMENTS, 200).length;
      if (sink < 0) throw new Error('unreachable');
    },
  };
}

/** µs per error message through `redactForModel` (as the chain calls it: cut to 300), and the success path. */
export async function benchRedaction(): Promise<string[]> {
  const baseline = process.env.TOOLWARDEN_BASELINE;
  const old = baseline
    ? ((await import(`${baseline}/redact/redact.js`)) as {
        redactForModel: RedactForModel;
        summarizeArguments: SummarizeArguments;
      })
    : undefined;
  const groups: Array<readonly [string, Subject[], number]> = [
    [
      '200-character error',
      [
        messages('redactForModel, 200-character error', redactForModel, SHORT),
        ...(old ? [messages('the baseline build, 200-character error', old.redactForModel, SHORT)] : []),
      ],
      1_000,
    ],
    [
      '4 KiB error',
      [
        messages('redactForModel, 4 KiB error', redactForModel, LONG),
        ...(old ? [messages('the baseline build, 4 KiB error', old.redactForModel, LONG)] : []),
      ],
      200,
    ],
    [
      'success path',
      [
        summaries('summarizeArguments of an ordinary call (the success path)', summarizeArguments),
        ...(old ? [summaries('the baseline build, the same summary', old.summarizeArguments)] : []),
      ],
      20_000,
    ],
  ];
  const lines = [
    `### Redaction: cost per message (median of 15 interleaved rounds; ${HOSTILE_ERROR_MESSAGES.length} corpus messages cut or padded to size, shown cut to 300)`,
    '',
    formatRow(['subject', 'µs per message', 'ratio to the first of its group']),
    formatRow(['---', '---', '---']),
  ];
  for (const [, subjects, operations] of groups) {
    const { medians, ratios } = await compare(subjects, { rounds: 15, operations, warmup: operations });
    lines.push(...subjects.map((s) => formatRow([s.name, medians[s.name] ?? 0, ratios[s.name] ?? 0])));
  }
  return lines;
}
