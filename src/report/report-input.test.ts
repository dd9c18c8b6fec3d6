import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReportBuilder } from './report-builder.js';
import { parseReportInput } from './report-input.js';

const AT_SAMPLE = '2026-12-01T12:00:00.000Z';

const CALL = {
  schemaVersion: 2,
  kind: 'call',
  at: '2026-12-01T12:00:00.000Z',
  runId: 'r1',
  toolCallId: 'c1',
  toolName: 'getPrice',
  argumentsSummary: '{}',
  argumentsDigest: 'ab12',
  outcome: 'success',
  durationMs: 1.5,
  attempts: 1,
  retries: 0,
  replay: false,
};
const RUN = {
  schemaVersion: 2,
  kind: 'run',
  at: '2026-12-01T12:00:01.000Z',
  runId: 'r1',
  resumed: false,
  outcome: 'stopped',
  stopReason: 'LOOP_DETECTED',
  roundTrips: 4,
  maxRoundTrips: 50,
  toolCalls: 3,
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
};
const line = (value: unknown) => JSON.stringify(value);

describe('parseReportInput', () => {
  it('reads the fields of a call record and of a run record', () => {
    expect(parseReportInput(line(CALL))).toEqual({
      kind: 'call',
      at: CALL.at,
      runId: 'r1',
      toolName: 'getPrice',
      digest: 'ab12',
      outcome: 'success',
      code: undefined,
      durationMs: 1.5,
      ran: true,
      replay: false,
      approval: undefined,
      contractViolation: false,
    });
    expect(parseReportInput(line(RUN))).toEqual({
      kind: 'run',
      at: RUN.at,
      runId: 'r1',
      outcome: 'stopped',
      stopReason: 'LOOP_DETECTED',
      roundTrips: 4,
      maxRoundTrips: 50,
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
    });
  });

  it.each([
    ['not JSON', '{"kind":'],
    ['an empty line', ''],
    ['an array', '[1,2]'],
    ['null', 'null'],
    ['a number', '42'],
    ['another schema version', line({ ...CALL, schemaVersion: 3 })],
    ['a version as text', line({ ...CALL, schemaVersion: '2' })],
    ['an unknown kind', line({ ...CALL, kind: 'step' })],
    ['no time', line({ ...CALL, at: undefined })],
    ['a time that is not ISO 8601 UTC', line({ ...CALL, at: 'yesterday' })],
    ['a time with an offset', line({ ...CALL, at: '2026-12-01T12:00:00+02:00' })],
    ['a tool name that is not text', line({ ...CALL, toolName: { toString: 'x' } })],
    ['an unknown outcome', line({ ...CALL, outcome: 'great' })],
    ['a negative duration', line({ ...CALL, durationMs: -1 })],
    ['a duration as text', line({ ...CALL, durationMs: '5' })],
    [
      'an infinite duration (1e999)',
      '{"schemaVersion":2,"kind":"call","at":"2026-12-01T12:00:00Z","toolName":"t","outcome":"success","durationMs":1e999}',
    ],
    ['a code with markup', line({ ...CALL, outcome: 'transient', code: '<b>X</b>' })],
    ['an approval that is not a decision', line({ ...CALL, approval: 'maybe' })],
    ['a run id that is a number', line({ ...CALL, runId: 7 })],
    ['a run without an id', line({ ...RUN, runId: undefined })],
    ['fractional round trips', line({ ...RUN, roundTrips: 2.5 })],
    ['round trips beyond 2^53', line({ ...RUN, roundTrips: 2 ** 60 })],
    ['a stop reason with spaces', line({ ...RUN, stopReason: 'loop detected' })],
    ['a version 2 stop reason in lower case', line({ ...RUN, stopReason: RUN.stopReason.toLowerCase() })],
    ['a version 1 stop reason in upper case', line({ ...RUN, schemaVersion: 1 })],
    ['a ceiling of -1', line({ ...RUN, maxRoundTrips: -1 })],
  ])('passes over %s', (_, text) => {
    expect(parseReportInput(text)).toBeUndefined();
  });

  it('keeps a record with own __proto__ and constructor keys as plain data', () => {
    const text = `{"__proto__":{"polluted":true},"constructor":1,${line(CALL).slice(1)}`;
    const input = parseReportInput(text);
    expect(input).toMatchObject({ kind: 'call', toolName: 'getPrice' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a run without usage or ceiling (older or partial records) with zero tokens', () => {
    const { usage: _usage, maxRoundTrips: _max, ...bare } = RUN;
    expect(parseReportInput(line(bare))).toMatchObject({ maxRoundTrips: undefined, totalTokens: 0 });
    expect(parseReportInput(line({ ...RUN, usage: { inputTokens: 'many' } }))).toMatchObject({
      inputTokens: 0,
    });
  });

  it('a call with attempts: 0 never ran (refused before it, or replayed): it has no latency', () => {
    expect(parseReportInput(line({ ...CALL, attempts: 0, durationMs: 0 }))).toMatchObject({ ran: false });
    // Without a count (a partial record), its duration is taken as it is.
    const { attempts: _, ...bare } = CALL;
    expect(parseReportInput(line(bare))).toMatchObject({ ran: true });
  });

  it('an allow-and-audit call of the MCP proxy ran unconfirmed: its "approved" is not a person\'s', () => {
    const proxied = { ...CALL, approval: 'approved' };
    expect(
      parseReportInput(
        line({ ...proxied, decidedBy: 'config: confirm.ifNoElicitation allow-and-audit (not confirmed)' }),
      ),
    ).toMatchObject({ approval: 'unconfirmed' });
    expect(parseReportInput(line({ ...proxied, decidedBy: 'user (MCP elicitation)' }))).toMatchObject({
      approval: 'approved',
    });
    expect(parseReportInput(line({ ...proxied, decidedBy: 'alice' }))).toMatchObject({
      approval: 'approved',
    });
  });

  it('an older proxy record of a loop refusal (no code) gets LOOP_DETECTED from its text; a code is kept', () => {
    const refused = {
      ...CALL,
      outcome: 'denied',
      attempts: 0,
      denialReason: 'LOOP_DETECTED: This call to open_nodes repeats a loop that was stopped.',
    };
    expect(parseReportInput(line(refused))).toMatchObject({ code: 'LOOP_DETECTED', ran: false });
    expect(parseReportInput(line({ ...refused, code: 'PERMISSION_DENIED' }))).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    // A hook's reason that happens to start so on a successful call is not a refusal.
    expect(parseReportInput(line({ ...refused, outcome: 'success' }))).toMatchObject({ code: undefined });
  });

  it('drops a stop reason on a run that did not stop, and an empty digest', () => {
    expect(parseReportInput(line({ ...RUN, outcome: 'completed' }))).toMatchObject({ stopReason: undefined });
    expect(parseReportInput(line({ ...CALL, argumentsDigest: '' }))).toMatchObject({ digest: undefined });
  });
});

describe('parseReportInput over arbitrary input', () => {
  const field = fc.oneof(fc.jsonValue(), fc.constantFrom(1, 'call', 'run', 'success', 'stopped', AT_SAMPLE));
  const recordLike = fc.record(
    {
      schemaVersion: fc.constantFrom(1, 2, '1'),
      kind: fc.constantFrom('call', 'run', 'other'),
      at: fc.oneof(fc.constant(AT_SAMPLE), fc.string()),
      runId: field,
      toolName: field,
      argumentsDigest: field,
      outcome: fc.oneof(
        fc.constantFrom('success', 'transient', 'completed', 'stopped', 'interrupted'),
        field,
      ),
      code: field,
      durationMs: fc.oneof(fc.double(), field),
      roundTrips: fc.oneof(fc.integer(), fc.double(), field),
      maxRoundTrips: field,
      stopReason: field,
      usage: field,
      approval: field,
      attempts: field,
      decidedBy: field,
      denialReason: field,
    },
    { requiredKeys: [] },
  );

  it('never throws, and what it reads gives a report of finite numbers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            recordLike.map((value) => JSON.stringify(value)),
            fc.string(),
          ),
        ),
        (lines) => {
          const builder = new ReportBuilder('fuzz');
          lines.forEach((text, index) => {
            const input = parseReportInput(text);
            if (input === undefined) builder.countUnreadable(index + 1);
            else builder.add(input);
          });
          const text = JSON.stringify(builder.finish());
          expect(text).not.toMatch(/NaN|Infinity|"rate":-/);
          const report = JSON.parse(text) as { records: { calls: number; runs: number; skipped: number } };
          expect(report.records.calls + report.records.runs + report.records.skipped).toBe(lines.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
