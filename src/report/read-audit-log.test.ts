import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_MAX_LINE_BYTES } from '../defaults.js';
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

  it('a binary file or a text that is not JSONL gives a report of skipped lines, not an error', async () => {
    const path = await file(
      'noise.bin',
      Buffer.from(Array.from({ length: 5_000 }, (_, i) => (i * 37) % 256)),
    );
    const report = await reportAuditLog(path);
    expect(report.records.calls + report.records.runs).toBe(0);
    expect(report.records.skipped).toBeGreaterThan(0);
    expect(report.records.firstSkipped[0]).toBe(1);
  });
});
