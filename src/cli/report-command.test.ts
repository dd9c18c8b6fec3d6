import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAuditSink } from '../adapters/sqlite/sqlite-audit-sink.js';
import { auditListener } from '../audit/audit-listener.js';
import type { AuditSink } from '../audit/audit-sink.js';
import { createJsonlAuditSink } from '../audit/jsonl-audit-sink.js';
import type { AuditReport } from '../report/audit-report.js';
import type { LoopOutcome } from '../run/loop-outcome.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { runCli } from './run-cli.js';

const getPrice = defineTool({
  name: 'getPrice',
  description: 'The price of a product.',
  effect: 'read',
  input: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  execute: ({ sku }: { sku: string }) => ({ sku, price: 12 }),
});
/** A tool name with a terminal escape (the chain strips the escape character itself). */
const EVIL = '\u001b[31mred';

let folder: string;
let jsonl: string;
let sqlite: string;
let outcomes: LoopOutcome[];

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd: folder,
    stdout: async (text) => {
      stdout += text;
    },
    stderr: async (text) => {
      stderr += text;
    },
  });
  return { stdout, stderr, code };
}

async function jsonReport(path: string): Promise<AuditReport> {
  const { stdout, code } = await cli('report', path, '--json', '-');
  expect(code).toBe(0);
  return JSON.parse(stdout) as AuditReport;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-report-cli-'));
  jsonl = join(folder, 'audit.jsonl');
  sqlite = join(folder, 'audit.sqlite');
  const sinks = [createJsonlAuditSink({ path: jsonl }), createSqliteAuditSink({ path: sqlite })];
  const both: AuditSink = {
    append: (record) => {
      for (const sink of sinks) sink.append(record);
    },
    flush: async () => {
      await Promise.all(sinks.map((sink) => sink.flush()));
    },
    close: async () => {
      await Promise.all(sinks.map((sink) => sink.close()));
    },
  };
  const same = assistantWithCalls([{ name: 'getPrice', arguments: { sku: 'X-1' } }]);
  outcomes = [
    // The model asks the same thing round after round: the guard stops it.
    await runToolLoop({
      model: new ScriptedModel({ script: Array.from({ length: 12 }, () => same) }),
      tools: [getPrice],
      messages: [{ role: 'user', content: 'price of X-1?' }],
      maxRoundTrips: 12,
      onEvent: auditListener(both),
    }),
    // Two distinct calls and a call of an unknown tool, then the answer.
    await runToolLoop({
      model: new ScriptedModel({
        script: [
          assistantWithCalls([
            { name: 'getPrice', arguments: { sku: 'A' } },
            { name: 'getPrice', arguments: { sku: 'B' } },
            { name: EVIL, arguments: {} },
          ]),
          { role: 'assistant', content: 'A and B cost 12.' },
        ],
      }),
      tools: [getPrice],
      messages: [{ role: 'user', content: 'prices of A and B?' }],
      onEvent: auditListener(both),
    }),
  ];
  await both.close();
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('toolwarden report', () => {
  it('reports the runs as they ended: rounds, the stop, repeats, errors', async () => {
    const [looped, answered] = outcomes;
    if (looped?.type !== 'stopped' || answered?.type !== 'completed') throw new Error('unexpected outcomes');
    const report = await jsonReport('audit.jsonl');
    expect(report.records).toMatchObject({ calls: looped.toolCalls + 3, runs: 2, skipped: 0 });
    expect(report.rounds.histogram).toEqual(
      [looped.roundTrips, answered.roundTrips].sort((a, b) => a - b).map((rounds) => ({ rounds, runs: 1 })),
    );
    expect(report.rounds.p95).toBe(Math.max(looped.roundTrips, answered.roundTrips));
    expect(report.rounds.recommendedCeiling).toBe(Math.max(looped.roundTrips, answered.roundTrips) + 2);
    expect(report.rounds.configuredCeilings).toEqual([
      { maxRoundTrips: 12, runs: 1 },
      { maxRoundTrips: 50, runs: 1 },
    ]);
    expect(report.stops.byReason).toEqual([{ reason: looped.reason, runs: 1 }]);
    // Every call of the looping run after its first repeats it.
    expect(report.repeats).toMatchObject({ calls: looped.toolCalls + 3, repeated: looped.toolCalls - 1 });
    expect(report.top.byRepeats).toEqual([{ tool: 'getPrice', count: looped.toolCalls - 1 }]);
    expect(report.errors.byCode).toEqual([{ code: 'UNKNOWN_TOOL', calls: 1 }]);
    expect(report.usage.totalTokens).toBe(looped.usage.totalTokens + answered.usage.totalTokens);
  });

  it('gives the same report from the SQLite log as from the JSONL one', async () => {
    const fromSqlite = await jsonReport(sqlite);
    const fromJsonl = await jsonReport(jsonl);
    expect({ ...fromSqlite, source: '' }).toEqual({ ...fromJsonl, source: '' });
    expect(fromSqlite.source).toBe('audit.sqlite');
  });

  it('prints the playbook figures as text, with a control character of a tool name escaped', async () => {
    // The chain strips control characters from a model's tool name; a log may come from anywhere.
    const hostile = join(folder, 'hostile.jsonl');
    const record = {
      schemaVersion: 1,
      kind: 'call',
      at: '2026-12-01T12:00:00.000Z',
      toolCallId: 'x',
      toolName: '\u001b]0;owned\u0007\u001b[31mred',
      outcome: 'success',
      durationMs: 1,
    };
    await writeFile(hostile, `${await readFile(jsonl, 'utf8')}${JSON.stringify(record)}\n`);
    const { stdout, code } = await cli('report', 'hostile.jsonl');
    expect(code).toBe(0);
    expect(stdout).toContain('recommended ceiling (P95 + 2)');
    expect(stdout).toContain('Repeated-fingerprint hit rate');
    expect(stdout).toContain('\\u001b]0;owned\\u0007\\u001b[31mred');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal.
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it('writes the JSON and the page to files, and says where', async () => {
    const { code, stderr } = await cli('report', 'audit.jsonl', '--json', 'out.json', '--html', 'out.html');
    expect(code).toBe(0);
    expect(stderr).toContain('wrote json: out.json, html: out.html');
    const written = JSON.parse(await readFile(join(folder, 'out.json'), 'utf8')) as AuditReport;
    expect(written).toEqual(await jsonReport('audit.jsonl'));
    expect(await readFile(join(folder, 'out.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('exits 1 when a --fail-on condition is met, 0 when none is, and says which', async () => {
    const met = await cli('report', 'audit.jsonl', '--fail-on', 'repeat-rate>0.05', '--fail-on', 'skipped>0');
    expect(met.code).toBe(1);
    expect(met.stderr).toMatch(/fail-on repeat-rate>0\.05: [\d.]+: MET/);
    expect(met.stderr).toContain('fail-on skipped>0: 0: not met');
    expect((await cli('report', 'audit.jsonl', '--fail-on', 'repeat-rate>0.99')).code).toBe(0);
  });

  it.each([
    [['report'], 'missing the audit log'],
    [['report', 'a.jsonl', 'b.jsonl'], 'expected one audit log'],
    [['report', 'missing.jsonl'], 'no such file'],
    [['report', '.'], 'is not a file'],
    [['report', 'audit.jsonl', '--fail-on', 'repeats>1'], 'metrics: repeat-rate'],
    [['report', 'audit.jsonl', '--html', '-'], '--html needs a file name'],
    [['report', 'audit.jsonl', '--csv'], "Unknown option '--csv'"],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('counts the lines of a damaged log as skipped and reports the rest', async () => {
    const damaged = join(folder, 'damaged.jsonl');
    const lines = (await readFile(jsonl, 'utf8')).split('\n');
    await writeFile(damaged, [lines[0], '{"truncated', '\u0000\u0001', ...lines.slice(1)].join('\n'));
    const report = await jsonReport(damaged);
    expect(report.records).toMatchObject({ skipped: 2, firstSkipped: [2, 3] });
    expect(report.records.calls + report.records.runs).toBe(lines.filter((line) => line !== '').length);
  });
});
