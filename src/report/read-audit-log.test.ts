import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_MAX_LINE_BYTES } from '../core/defaults.js';
import { AuditLogError } from './audit-log-error.js';
import { type AuditLogEntry, readAuditLog } from './read-audit-log.js';
import { reportAuditLog } from './report-audit-log.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolwarden-read-audit-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function entries(path: string): Promise<AuditLogEntry[]> {
  const all: AuditLogEntry[] = [];
  for await (const entry of readAuditLog(path)) all.push(entry);
  return all;
}

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content);
  return path;
}

describe('readAuditLog', () => {
  it('gives the lines with their numbers: \\r\\n ends a line too, a last line needs no newline', async () => {
    const path = await file('lines.jsonl', 'a\r\nb\n\nc');
    expect(await entries(path)).toEqual([
      { position: 1, text: 'a' },
      { position: 2, text: 'b' },
      { position: 3, text: '' },
      { position: 4, text: 'c' },
    ]);
    expect(await entries(await file('empty.jsonl', ''))).toEqual([]);
  });

  it('decodes a character whose bytes fall on both sides of a read chunk', async () => {
    // The stream reads 64 KiB at a time: put a 4-byte emoji across the boundary.
    const before = 'x'.repeat(65_536 - 2);
    const path = await file('utf8.jsonl', `${before}🦀tail\nnext\n`);
    const [first, second] = await entries(path);
    expect(first?.text).toBe(`${before}🦀tail`);
    expect(second).toEqual({ position: 2, text: 'next' });
  });

  it('passes over a line too long to hold without reading it into memory, and goes on', async () => {
    const path = await file('long.jsonl', `ok\n${'y'.repeat(DEFAULT_REPORT_MAX_LINE_BYTES + 10)}\nafter\n`);
    expect(await entries(path)).toEqual([
      { position: 1, text: 'ok' },
      { position: 2, text: undefined },
      { position: 3, text: 'after' },
    ]);
  });

  it('reads a SQLite database by its header, whatever its name, row by row', async () => {
    const path = join(folder, 'audit.log');
    const database = new Database(path);
    database.exec(
      'CREATE TABLE toolwarden_audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL)',
    );
    database.prepare('INSERT INTO toolwarden_audit (record) VALUES (?), (?)').run('{"a":1}', 'not json');
    database.close();
    expect(await entries(path)).toEqual([
      { position: 1, text: '{"a":1}' },
      { position: 2, text: 'not json' },
    ]);
  });
});

describe('reportAuditLog on files that are not audit logs', () => {
  it.each([
    ['a missing file', async () => join(folder, 'missing.jsonl'), 'not-found'],
    ['a folder', async () => folder, 'not-a-file'],
    [
      'a SQLite database without the audit table',
      async () => {
        const path = join(folder, 'other.sqlite');
        const database = new Database(path);
        database.exec('CREATE TABLE other (x)');
        database.close();
        return path;
      },
      'not-an-audit-log',
    ],
  ])('%s is an AuditLogError', async (_, make, problem) => {
    const error = await reportAuditLog(await make()).catch((thrown: unknown) => thrown);
    expect(AuditLogError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'AUDIT_LOG_UNREADABLE', problem });
  });

  it('a binary file, or a text none of whose lines is a record (a package.json), is not an audit log', async () => {
    const noise = await file(
      'noise.bin',
      Buffer.from(Array.from({ length: 5_000 }, (_, i) => (i * 37) % 256)),
    );
    const json = await file('package.json', `${JSON.stringify({ name: 'x', version: '1.0.0' }, null, 2)}\n`);
    for (const path of [noise, json]) {
      const error = await reportAuditLog(path).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ code: 'AUDIT_LOG_UNREADABLE', problem: 'not-an-audit-log' });
    }
    const error = await reportAuditLog(json).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toBe(
      `${json} is not an audit log: none of its 4 lines is an audit record of schema version 1 or 2 (line 1, 2, 3, 4)`,
    );
  });

  it('an empty file is an empty log (a sink that has written nothing yet), not an error', async () => {
    const report = await reportAuditLog(await file('fresh.jsonl', ''));
    expect(report.records).toEqual({ calls: 0, runs: 0, skipped: 0, firstSkipped: [] });
  });

  it('a log with records keeps its unreadable lines as skipped, not an error', async () => {
    const record = {
      schemaVersion: 1,
      kind: 'call',
      at: '2026-12-01T12:00:00.000Z',
      toolName: 't',
      outcome: 'success',
      durationMs: 1,
    };
    const report = await reportAuditLog(await file('torn.jsonl', `${JSON.stringify(record)}\n{"torn`));
    expect(report.records).toMatchObject({ calls: 1, skipped: 1, firstSkipped: [2] });
  });
});

describe('reportAuditLog on a log written before stop reasons were codes (schema version 1)', () => {
  it('reads its kebab-case stop reasons as the codes they spell', async () => {
    const path = fileURLToPath(new URL('./__fixtures__/v1-audit.jsonl', import.meta.url));
    const report = await reportAuditLog(path);
    expect(report.records).toMatchObject({ calls: 1, runs: 5, skipped: 0 });
    expect(report.stops.byReason).toEqual([
      { reason: 'ABORTED', runs: 1 },
      { reason: 'LOOP_DETECTED', runs: 1 },
      { reason: 'MAX_ROUND_TRIPS', runs: 1 },
      { reason: 'TOOL_CALL_LIMIT', runs: 1 },
    ]);
  });
});
