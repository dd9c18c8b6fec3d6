import { describe, expect, it } from 'vitest';
import { argumentsDigest } from '../chain/arguments-digest.js';
import { chargeTool } from '../chain/idempotency/__fixtures__/charge-tool.js';
import { createToolRuntime } from '../chain/runtime.js';
import { approvalShop, DIGEST, DONE, ROUND, USER } from '../run/__fixtures__/approval-runs.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { memoryAuditSink } from './__fixtures__/memory-audit-sink.js';
import { auditListener } from './audit-listener.js';

const NOW = () => new Date('2026-12-01T12:00:00.000Z');

const deleteInvoice = defineTool({
  name: 'deleteInvoice',
  description: 'Deletes an invoice.',
  effect: 'write',
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  decide: () => ({ type: 'deny', reason: 'not an admin' }),
  execute: () => 'deleted',
});

describe('the audit listener over a real run', () => {
  it('writes one record per finished call (a replayed write, a denied call) and one per run', async () => {
    const { tool, ledger } = chargeTool();
    const sink = memoryAuditSink();
    const outcome = await runToolLoop({
      model: new ScriptedModel({
        script: [
          assistantWithCalls([
            { name: 'charge', arguments: { order: 'A-1' }, id: 'c1' },
            { name: 'charge', arguments: { order: 'A-1' }, id: 'c2' },
            { name: 'deleteInvoice', arguments: { id: 'inv-1' }, id: 'd1' },
          ]),
          { role: 'assistant', content: 'Charged once.' },
        ],
      }),
      runtime: createToolRuntime({ tools: [tool, deleteInvoice], store: new MemoryStore() }),
      messages: [{ role: 'user', content: 'charge A-1 and delete inv-1' }],
      sessionId: 'session-1',
      turnId: 'turn-1',
      onEvent: auditListener(sink, { now: NOW }),
    });
    expect(outcome.type).toBe('completed');
    expect(ledger.charges).toHaveLength(1);
    const ids = { runId: outcome.runId, sessionId: 'session-1', turnId: 'turn-1' };
    const calls = sink.records.filter((record) => record.kind === 'call');
    expect(calls.map((record) => record.toolCallId).sort()).toEqual(['c1', 'c2', 'd1']);
    const byId = new Map(calls.map((record) => [record.toolCallId, record]));
    expect(byId.get('c1')).toEqual({
      schemaVersion: 2,
      kind: 'call',
      at: '2026-12-01T12:00:00.000Z',
      ...ids,
      toolCallId: 'c1',
      toolName: 'charge',
      argumentsSummary: '{"order":"A-1"}',
      argumentsDigest: argumentsDigest('charge', '{"order":"A-1"}'),
      outcome: 'success',
      durationMs: expect.any(Number),
      attempts: 1,
      retries: 0,
      replay: false,
    });
    expect(byId.get('c2')).toMatchObject({ ...ids, outcome: 'success', replay: true, replayOf: 'c1' });
    expect(byId.get('d1')).toMatchObject({
      ...ids,
      toolName: 'deleteInvoice',
      outcome: 'denied',
      code: 'PERMISSION_DENIED',
      denialReason: 'not an admin',
      replay: false,
    });
    expect(sink.records.at(-1)).toEqual({
      schemaVersion: 2,
      kind: 'run',
      at: '2026-12-01T12:00:00.000Z',
      ...ids,
      resumed: false,
      outcome: 'completed',
      roundTrips: 2,
      maxRoundTrips: 50,
      toolCalls: 3,
      usage: outcome.usage,
    });
    expect(sink.records).toHaveLength(4);
  });

  it("keeps what a developer needs in a record's argument summary (a path, an id, a number) and removes secrets", async () => {
    const exportReport = defineTool({
      name: 'exportReport',
      description: 'Exports a report.',
      effect: 'read',
      input: { type: 'object' },
      execute: () => 'exported',
    });
    const sink = memoryAuditSink();
    const key = ['sk', '_live_', '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HK'].join('');
    const args = {
      path: '/home/deploy/reports/q3.csv',
      customer: 'cus_9s8d7f6g5h4j',
      rows: 120,
      password: 'hunter2',
      note: `use ${key}`,
      dsn: 'postgres://app:S3cret@db.acme.io/shop',
    };
    await runToolLoop({
      model: new ScriptedModel({
        script: [
          assistantWithCalls([{ name: 'exportReport', arguments: args, id: 'e1' }]),
          { role: 'assistant', content: 'Done.' },
        ],
      }),
      tools: [exportReport],
      messages: [{ role: 'user', content: 'export q3' }],
      onEvent: auditListener(sink, { now: NOW }),
    });
    const [record] = sink.records.filter((entry) => entry.kind === 'call');
    expect(record?.argumentsSummary).toBe(
      '{"path":"/home/deploy/reports/q3.csv","customer":"cus_9s8d7f6g5h4j","rows":120,"password":"[redacted:secret]","note":"use [redacted:key]","dsn":"postgres://[redacted:secret]@db.acme.io/shop"}',
    );
  });

  it('marks a call whose result broke its output contract, under each policy, and the ceiling in force', async () => {
    const sink = memoryAuditSink();
    const lookup = (name: string, policy: 'feedback' | 'warn') =>
      defineTool({
        name,
        description: 'Looks up a price.',
        effect: 'read',
        input: { type: 'object', properties: {} },
        output: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] },
        onContractViolation: policy,
        execute: () => ({ price: 'free' }),
      });
    await runToolLoop({
      model: new ScriptedModel({
        script: [
          assistantWithCalls([
            { name: 'warned', arguments: {}, id: 'w1' },
            { name: 'fedBack', arguments: {}, id: 'f1' },
            { name: 'fine', arguments: {}, id: 'ok1' },
          ]),
          { role: 'assistant', content: 'done' },
        ],
      }),
      tools: [
        lookup('warned', 'warn'),
        lookup('fedBack', 'feedback'),
        defineTool({
          name: 'fine',
          description: 'Answers.',
          effect: 'read',
          input: { type: 'object', properties: {} },
          execute: () => 'ok',
        }),
      ],
      messages: [{ role: 'user', content: 'prices' }],
      maxRoundTrips: 7,
      onEvent: auditListener(sink, { now: NOW }),
    });
    const byId = new Map(
      sink.records.flatMap((record) => (record.kind === 'call' ? [[record.toolCallId, record]] : [])),
    );
    expect(byId.get('w1')).toMatchObject({ outcome: 'success', contractViolation: true });
    expect(byId.get('f1')).toMatchObject({ code: 'CONTRACT_VIOLATION', contractViolation: true });
    expect(byId.get('ok1')).not.toHaveProperty('contractViolation');
    expect(sink.records.at(-1)).toMatchObject({ kind: 'run', maxRoundTrips: 7 });
  });

  it('records an interrupted run with the calls awaiting approval, without their raw arguments', async () => {
    const sink = memoryAuditSink();
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script: [ROUND] }),
      messages: USER,
      runtime: createToolRuntime({ tools: approvalShop().tools, store: new MemoryStore() }),
      onEvent: auditListener(sink),
    });
    if (outcome.type !== 'interrupted') throw new Error(`expected interrupted, got ${outcome.type}`);
    const run = sink.records.at(-1);
    expect(run).toMatchObject({ kind: 'run', runId: outcome.runId, outcome: 'interrupted' });
    if (run?.kind !== 'run') throw new Error('expected a run record');
    expect(run.awaitingApproval).toEqual(
      outcome.pending.map((call) => ({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        argumentsSummary: call.argumentsSummary,
        argumentsDigest: call.argumentsDigest,
        ...(call.reason === undefined ? {} : { reason: call.reason }),
      })),
    );
    expect(run.awaitingApproval?.map((call) => call.toolName)).toEqual(['refundOrder']);
    expect(JSON.stringify(sink.records)).not.toContain('"arguments"');
  });

  it.each([
    ['approved', undefined, { approve: true, argumentsDigest: DIGEST }, 'success'],
    [
      'approved',
      'alice@example.com',
      { approve: true, argumentsDigest: DIGEST, by: 'alice@example.com' },
      'success',
    ],
    ['denied', undefined, { approve: false, message: 'not today' }, 'denied'],
    ['denied', 'Ops Lead #7', { approve: false, by: 'Ops Lead #7' }, 'denied'],
  ] as const)('records the decision given on resume: %s, by %s', async (approval, by, decision, outcome) => {
    const store = new MemoryStore();
    const paused = await runToolLoop({
      model: new ScriptedModel({ script: [ROUND] }),
      messages: USER,
      runtime: createToolRuntime({ tools: approvalShop().tools, store }),
    });
    const sink = memoryAuditSink();
    const resumed = await runToolLoop({
      from: { runId: paused.runId },
      runtime: createToolRuntime({ tools: approvalShop().tools, store }),
      model: new ScriptedModel({ script: [DONE] }),
      decisions: { r1: decision },
      onEvent: auditListener(sink),
    });
    expect(resumed.type).toBe('completed');
    expect(sink.records.find((record) => record.kind === 'call' && record.toolCallId === 'r1')).toMatchObject(
      {
        runId: paused.runId,
        toolName: 'refundOrder',
        argumentsDigest: DIGEST,
        approval,
        outcome,
        ...(approval === 'denied' ? { denialReason: 'denied by a resume decision' } : {}),
      },
    );
    const record = sink.records.find((entry) => entry.kind === 'call' && entry.toolCallId === 'r1');
    // Who decided, as given (an operator's id, not model text: not redacted); no field when nobody was named.
    if (by === undefined) expect(record).not.toHaveProperty('decidedBy');
    else expect(record).toMatchObject({ decidedBy: by });
    expect(sink.records.at(-1)).toMatchObject({ kind: 'run', resumed: true, outcome: 'completed' });
  });

  it('records a stop with its reason and evidence', async () => {
    const sink = memoryAuditSink();
    const call = assistantWithCalls([{ name: 'deleteInvoice', arguments: { id: 'inv-1' } }]);
    const outcome = await runToolLoop({
      model: new ScriptedModel({ script: [call, call, call] }),
      messages: [{ role: 'user', content: 'x' }],
      tools: [deleteInvoice],
      maxRoundTrips: 1,
      onEvent: auditListener(sink),
    });
    expect(outcome.type).toBe('stopped');
    expect(sink.records.at(-1)).toMatchObject({
      kind: 'run',
      outcome: 'stopped',
      stopReason: 'MAX_ROUND_TRIPS',
      evidence: { kind: 'ceiling', limit: 'round-trips', max: 1 },
    });
  });
});
