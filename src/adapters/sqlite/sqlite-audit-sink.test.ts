import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { auditListener } from '../../audit/audit-listener.js';
import type { AuditRecord } from '../../audit/audit-record.js';
import type { AuditSinkFailure } from '../../audit/audit-sink.js';
import { createToolRuntime } from '../../chain/runtime.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { MemoryStore } from '../../store/memory-store.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { defineTool } from '../../tools/define-tool.js';
import { createSqliteAuditSink } from './sqlite-audit-sink.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up.',
  effect: 'read',
  input: { type: 'object', properties: { id: { type: 'string' } } },
  execute: () => 'found',
});

describe('the SQLite audit sink', () => {
  it('inserts one row per record, the record as JSON beside its columns', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'toolwarden-audit-')), 'audit.db');
    const sink = createSqliteAuditSink({ path });
    const outcome = await runToolLoop({
      model: new ScriptedModel({
        script: [
          assistantWithCalls([
            { name: 'lookup', arguments: { id: '1' }, id: 'c1' },
            { name: 'lookup', arguments: { id: '2' }, id: 'c2' },
          ]),
          { role: 'assistant', content: 'done' },
        ],
      }),
      runtime: createToolRuntime({ tools: [lookup], store: new MemoryStore() }),
      messages: [{ role: 'user', content: 'go' }],
      sessionId: 's-1',
      onEvent: auditListener(sink),
    });
    await sink.close();
    const database = new Database(path, { readonly: true });
    const rows = database
      .prepare(
        'SELECT kind, run_id, session_id, tool_call_id, outcome, record FROM toolwarden_audit ORDER BY seq',
      )
      .all() as {
      kind: string;
      run_id: string;
      session_id: string;
      tool_call_id: string | null;
      record: string;
    }[];
    database.close();
    expect(rows.map((row) => [row.kind, row.run_id, row.session_id, row.tool_call_id])).toEqual([
      ['call', outcome.runId, 's-1', 'c1'],
      ['call', outcome.runId, 's-1', 'c2'],
      ['run', outcome.runId, 's-1', null],
    ]);
    const records = rows.map((row) => JSON.parse(row.record) as AuditRecord);
    expect(records.at(-1)).toMatchObject({ kind: 'run', outcome: 'completed', toolCalls: 2 });
  });

  it('a database that cannot be opened is reported, the run completes', async () => {
    const failures: AuditSinkFailure[] = [];
    const path = join(mkdtempSync(join(tmpdir(), 'toolwarden-audit-')), 'missing', 'audit.db');
    const sink = createSqliteAuditSink({ path, onError: (failure) => failures.push(failure) });
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script: [{ role: 'assistant', content: 'done' }] }),
      tools: [lookup],
      messages: [{ role: 'user', content: 'go' }],
      onEvent: auditListener(sink),
    });
    await sink.close();
    expect(outcome.type).toBe('completed');
    expect(failures).toMatchObject([{ operation: 'write', lostRecords: 1 }]);
  });
});
