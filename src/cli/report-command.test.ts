import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAuditSink } from '../adapters/sqlite/sqlite-audit-sink.js';
import { auditListener } from '../audit/audit-listener.js';
import type { AuditSink } from '../audit/audit-sink.js';
import { createJsonlAuditSink } from '../audit/jsonl-audit-sink.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { AuditReport } from '../report/audit-report.js';
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
    // Two runs are too few for a P95 to rest on: no ceiling is recommended from them.
    expect(report.rounds).toMatchObject({ recommendedCeiling: null, minRunsForCeiling: 30 });
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
    expect(stdout).toContain(
      'recommended ceiling: withheld: 2 finished runs, at least 30 are needed for a P95 to rest on',
    );
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

  it('a file that is not an audit log (a package.json) exits 2, saying so; an empty one is an empty log', async () => {
    await writeFile(join(folder, 'package.json'), '{\n  "name": "app",\n  "version": "1.0.0"\n}\n');
    const json = await cli('report', 'package.json');
    expect(json).toEqual({
      code: 2,
      stdout: '',
      stderr: `toolwarden report: ${join(folder, 'package.json')} is not an audit log: none of its 4 lines is an audit record of schema version 1 or 2 (line 1, 2, 3, 4)\n`,
    });
    await writeFile(join(folder, 'fresh.jsonl'), '');
    const fresh = await cli('report', 'fresh.jsonl');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toBe(
      'toolwarden report: fresh.jsonl\n  0 call records, 0 run records, 0 skipped\n\nThe audit log has no records: there is nothing to report yet.\n',
    );
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

/** A real log of `toolwarden mcp-proxy` in front of server-memory (see its generator beside it). */
const PROXY_LOG = fileURLToPath(new URL('../report/__fixtures__/proxy-audit.jsonl', import.meta.url));

describe('toolwarden report on an MCP proxy log (calls only)', () => {
  it('keeps each refusal to its code, an unconfirmed run apart, and says why the run figures are missing', async () => {
    const { code, stdout } = await cli('report', PROXY_LOG);
    expect(code).toBe(0);
    const out = stdout.split('\n');
    expect(out).toContain(
      'Rounds per run: no run records: this log has calls only (an MCP proxy log, or calls made outside a run), so there are no rounds, no recommended ceiling, no stops and no tokens to report',
    );
    expect(out).toContain('Stops: n/a (no run records)');
    expect(out).toContain('  calls refused by a call limit: search_nodes 1');
    expect(out).toContain('  calls refused by the loop guard (LOOP_DETECTED): open_nodes 1');
    expect(out).toContain(
      'Approvals: approved by a person 1 · refused by a person 1 · ran unconfirmed (allow-and-audit) 1 · denied by policy 1 · idempotent replays 1',
    );
    expect(out).toContain('Tokens: n/a (no finished run)');
    expect(stdout).not.toContain('0.0% of finished runs');
    // delete_relations was only ever refused: it has no latency, not 0 ms.
    expect(out.find((line) => line.startsWith('  delete_relations'))).toMatch(/0 {4,}— {4,}— {4,}—$/);
  });

  it('--json: the refusals by code, the latency of the calls that ran', async () => {
    const { stdout } = await cli('report', PROXY_LOG, '--json', '-');
    const report = JSON.parse(stdout) as AuditReport;
    expect(report.approvals).toEqual({ approved: 1, refused: 1, unconfirmed: 1, denied: 1, replays: 1 });
    expect(report.loopRefusals).toEqual([{ tool: 'open_nodes', count: 1 }]);
    expect(report.limitHits).toEqual([{ tool: 'search_nodes', count: 1 }]);
    expect(report.errors.byCode).toEqual([
      { code: 'PERMISSION_DENIED', calls: 2 },
      { code: 'INVALID_ARGUMENTS', calls: 1 },
      { code: 'LOOP_DETECTED', calls: 1 },
      { code: 'TOOL_CALL_LIMIT', calls: 1 },
    ]);
    const search = report.tools.find((tool) => tool.tool === 'search_nodes');
    expect(search).toMatchObject({ calls: 3, ran: 2, limitHits: 1 });
    expect(search?.latencyMs.p50).toBeGreaterThan(0);
    expect(report.rounds).toMatchObject({ runs: 0, recommendedCeiling: null });
  });

  it('an older proxy log (loop refusals without a code) reads the same', async () => {
    const lines = (await readFile(PROXY_LOG, 'utf8'))
      .split('\n')
      .map((line) =>
        line.includes('"code":"LOOP_DETECTED"') ? line.replace('"code":"LOOP_DETECTED",', '') : line,
      );
    expect(lines.join('\n')).not.toContain('"code":"LOOP_DETECTED"');
    await writeFile(join(folder, 'older-proxy.jsonl'), lines.join('\n'));
    const older = await jsonReport('older-proxy.jsonl');
    const current = JSON.parse((await cli('report', PROXY_LOG, '--json', '-')).stdout) as AuditReport;
    expect({ ...older, source: '' }).toEqual({ ...current, source: '' });
  });
});
