import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOSTILE_ERROR_MESSAGES } from '../redact/__fixtures__/hostile-error-messages.js';
import { KEPT_IN_ARGUMENT_SUMMARIES } from '../redact/__fixtures__/kept-in-argument-summaries.js';
import { leakedFragments } from '../redact/__fixtures__/leak-check.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { runRecord } from './__fixtures__/run-record.js';
import { auditListener } from './audit-listener.js';
import type { AuditRecord } from './audit-record.js';
import type { AuditSinkFailure } from './audit-sink.js';
import { createJsonlAuditSink } from './jsonl-audit-sink.js';

const folder = () => mkdtempSync(join(tmpdir(), 'toolwarden-audit-'));
const RUN_RECORD = runRecord();
const readLines = (path: string): AuditRecord[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditRecord);

function echo(name: string, fail?: string) {
  return defineTool({
    name,
    description: 'Echoes.',
    effect: 'read',
    input: { type: 'object', properties: { text: { type: 'string' } } },
    execute: () => {
      if (fail !== undefined) throw new Error(fail);
      return 'ok';
    },
  });
}

async function auditedRun(
  path: string,
  tools: ReturnType<typeof echo>[],
  args: object,
  onError?: (f: AuditSinkFailure) => void,
  names = tools.map((tool) => tool.name),
) {
  const sink = createJsonlAuditSink({ path, ...(onError === undefined ? {} : { onError }) });
  const outcome = await runToolLoop({
    model: new ScriptedModel({
      script: [
        assistantWithCalls(names.map((name, index) => ({ name, arguments: args, id: `c${index}` }))),
        { role: 'assistant', content: 'done' },
      ],
    }),
    tools,
    messages: [{ role: 'user', content: 'go' }],
    guard: false,
    onEvent: auditListener(sink),
  });
  await sink.close();
  return outcome;
}

/**
 * The secret fragments of `entries` found in an audit file: exactly anywhere in it, and in every view of
 * leak-check in each string a record holds. (The digest, a hex hash, and the time are left out of the
 * second check: any six digits are somewhere in a file of hashes and durations.)
 */
function leaks(text: string, entries: readonly { readonly secrets: readonly string[] }[]): string[] {
  const secrets = entries.flatMap((entry) => entry.secrets);
  // What the run made up is left out: a digest, a time, a duration and the run's random ids can hold a
  // short numeric secret ("74219") by chance, and no secret reaches them.
  const records = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const {
        argumentsDigest: _digest,
        at: _at,
        durationMs: _ms,
        runId: _run,
        turnId: _turn,
        ...rest
      } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
  const fields = records.flatMap((record) => record.match(/"(?:[^"\\]|\\.)*"/gu) ?? []);
  return secrets.filter(
    (secret) =>
      records.some((record) => record.includes(secret)) ||
      fields.some((field) => leakedFragments(field, [secret]).length > 0),
  );
}

describe('the JSONL audit sink', () => {
  it('writes one line per record, read back in order, a hostile tool name and a huge argument kept on one line', async () => {
    const path = join(folder(), 'audit.jsonl');
    const odd = 'odd\nname"}\u2028{';
    const outcome = await auditedRun(path, [echo('lookup')], { text: 'x'.repeat(100_000) }, undefined, [
      'lookup',
      odd,
    ]);
    expect(outcome.type).toBe('completed');
    const records = readLines(path);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(records.length + 1);
    expect(records.at(-1)).toMatchObject({ kind: 'run', outcome: outcome.type });
    expect(records.find((record) => record.kind === 'call' && record.toolName === 'lookup')).toBeDefined();
    // The chain shows the unknown name without its line breaks; the record is the call's, one line.
    expect(records.find((record) => record.kind === 'call' && record.toolCallId === 'c1')).toMatchObject({
      toolName: 'oddname"}{',
      outcome: 'invalid-input',
      code: 'UNKNOWN_TOOL',
    });
    for (const record of records) {
      if (record.kind === 'call') expect(record.argumentsSummary.length).toBeLessThanOrEqual(200);
    }
    expect(readFileSync(path, 'utf8').length).toBeLessThan(5_000);
  });

  it('many records, some not ASCII: one line each, in order, whatever chunk they were encoded in', async () => {
    const path = join(folder(), 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    const runIds = Array.from({ length: 150 }, (_, index) => `r${index} ünï ✓ 𝄞 \u2028`);
    for (const runId of runIds.slice(0, 100)) sink.append({ ...RUN_RECORD, runId });
    await sink.flush();
    for (const runId of runIds.slice(100)) sink.append({ ...RUN_RECORD, runId });
    await sink.close();
    expect(readLines(path).map((record) => record.runId)).toEqual(runIds);
  });

  it('a full buffer refuses the record appended (reported), and a record that cannot be written loses only itself', async () => {
    const path = join(folder(), 'audit.jsonl');
    const failures: AuditSinkFailure[] = [];
    const sink = createJsonlAuditSink({
      path,
      maxBufferedRecords: 2,
      onError: (failure) => failures.push(failure),
    });
    const unwritable = { ...RUN_RECORD, runId: 'bad', usage: { ...RUN_RECORD.usage, totalTokens: 1n } };
    expect(() => sink.append(unwritable as unknown as AuditRecord)).not.toThrow();
    for (const runId of ['r1', 'r2', 'r3']) sink.append({ ...RUN_RECORD, runId });
    await sink.close();
    expect(readLines(path).map((record) => record.runId)).toEqual(['r1', 'r2']);
    expect(failures).toMatchObject([
      { operation: 'write', lostRecords: 1, error: { name: 'TypeError' } },
      { operation: 'overflow', lostRecords: 1 },
    ]);
  });

  it('appends to an existing file, and reports an append after close as lost, never throwing', async () => {
    const path = join(folder(), 'audit.jsonl');
    await auditedRun(path, [echo('lookup')], {});
    const failures: AuditSinkFailure[] = [];
    const sink = createJsonlAuditSink({ path, onError: (failure) => failures.push(failure) });
    await sink.close();
    const [record] = readLines(path);
    if (record === undefined) throw new Error('expected a record');
    expect(() => sink.append(record)).not.toThrow();
    expect(failures).toEqual([{ operation: 'append-after-close', lostRecords: 1 }]);
    expect(readLines(path)).toHaveLength(2);
  });

  it('a file that cannot be written: the run completes with its outcome and the failure is reported', async () => {
    const path = join(folder(), 'no-such-folder', 'audit.jsonl');
    const failures: AuditSinkFailure[] = [];
    const outcome = await auditedRun(path, [echo('lookup')], {}, (failure) => {
      failures.push(failure);
      throw new Error('the error listener fails too');
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'done' });
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((failure) => failure.operation === 'write')).toBe(true);
    expect(failures.reduce((sum, failure) => sum + failure.lostRecords, 0)).toBe(2);
    expect(failures[0]).toMatchObject({ error: { code: 'ENOENT' } });
  });

  it('a folder as the file: reported, flush and close resolve', async () => {
    const failures: AuditSinkFailure[] = [];
    const sink = createJsonlAuditSink({ path: folder(), onError: (failure) => failures.push(failure) });
    sink.append(RUN_RECORD);
    await expect(sink.flush()).resolves.toBeUndefined();
    await expect(sink.close()).resolves.toBeUndefined();
    expect(failures.map((failure) => failure.operation)).toEqual(['write']);
  });

  it.runIf(existsSync('/dev/full'))(
    'a full disk (ENOSPC, /dev/full): each lost batch is reported',
    async () => {
      const failures: AuditSinkFailure[] = [];
      const sink = createJsonlAuditSink({ path: '/dev/full', onError: (failure) => failures.push(failure) });
      sink.append(RUN_RECORD);
      sink.append(RUN_RECORD);
      await sink.flush();
      sink.append(RUN_RECORD);
      await sink.close();
      expect(failures).toMatchObject([
        { operation: 'write', lostRecords: 2, error: { code: 'ENOSPC' } },
        { operation: 'write', lostRecords: 1, error: { code: 'ENOSPC' } },
      ]);
    },
  );

  it('writes what is still buffered when the process exits without a close', () => {
    const path = join(folder(), 'audit.jsonl');
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./__fixtures__/exit-without-close.ts', import.meta.url)),
        path,
      ],
      { encoding: 'utf8' },
    );
    expect(child.status).toBe(0);
    expect(readLines(path).map((record) => record.runId)).toEqual(['r1', 'r2']);
  });

  it('the redaction corpus: no secret fragment of a hostile error message is written to the audit file', async () => {
    const path = join(folder(), 'audit.jsonl');
    // One round calls every tool; each throws one message of the corpus.
    const tools = HOSTILE_ERROR_MESSAGES.map((entry, index) => echo(`tool_${index}`, entry.message));
    await auditedRun(path, tools, { text: 'plain' });
    const text = readFileSync(path, 'utf8');
    const calls = readLines(path).filter((record) => record.kind === 'call');
    expect(calls).toHaveLength(HOSTILE_ERROR_MESSAGES.length);
    expect(calls.every((record) => record.outcome !== 'success')).toBe(true);
    expect(leaks(text, HOSTILE_ERROR_MESSAGES)).toEqual([]);
    // One call per corpus message (some 300) and every leak view of each record: about 3 s alone, more
    // when other test files share the cores, so the 5 s default would fail it for being slow, not wrong.
  }, 30_000);

  it('the redaction corpus in the arguments: secrets and personal data are removed before the summary is written', async () => {
    const path = join(folder(), 'audit.jsonl');
    const entries = HOSTILE_ERROR_MESSAGES.slice(0, 20);
    for (const [index, entry] of entries.entries()) {
      await auditedRun(path, [echo(`tool_${index}`)], { text: entry.message });
    }
    const text = readFileSync(path, 'utf8');
    // What a summary keeps of a value the model sent (hosts, paths, SQL) is the corpus' kept list.
    const hidden = entries.map(({ name, secrets }) => ({
      secrets: secrets.filter((secret) => !KEPT_IN_ARGUMENT_SUMMARIES[name]?.includes(secret)),
    }));
    expect(leaks(text, hidden)).toEqual([]);
  });
});
