import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createToolRuntime } from '../../chain/runtime.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import type { Fact } from '../run-reference-probe.js';
import { approvalDemoShop, DEMO_ROUND } from './approval-demo-shop.js';
import { openDemoStore } from './open-demo-store.js';

/** The second process: this folder's child script, run through tsx when this module is TypeScript (tests). */
const HERE = fileURLToPath(import.meta.url);
const CHILD = join(HERE, '..', `approval-demo-child${extname(HERE)}`);
const CHILD_ARGS = extname(HERE) === '.ts' ? ['--import', 'tsx', CHILD] : [CHILD];

interface ChildReport {
  readonly outcome?: string;
  readonly refused?: string;
  readonly refunds: number;
  readonly pid: number;
}

/**
 * Human approval across a restart, end to end: this process runs a request whose refund needs approval
 * (the read of the same response runs), and the run is kept in a SQLite file in a temp folder; a second
 * process resumes it by its id with an approval, and the refund runs there, once; a third resume (a replay
 * of the same approval) is refused. Every fact is read off what the runs returned.
 */
export async function runApprovalDemo(): Promise<Fact[]> {
  const facts: Fact[] = [];
  const fact = (key: string, value: unknown) => facts.push([key, String(value)]);
  const folder = await mkdtemp(join(tmpdir(), 'toolwarden-approvals-'));
  const path = join(folder, 'runs.db');
  try {
    const store = await openDemoStore(path);
    const shop = approvalDemoShop();
    let runId: string;
    let digest: string | undefined;
    let pendingId: string | undefined;
    try {
      const paused = await runToolLoop({
        model: new ScriptedModel({ script: [{ role: 'assistant', content: '', toolCalls: DEMO_ROUND }] }),
        messages: [{ role: 'user', content: 'Refund 250 on order A-1 and show me the order.' }],
        runtime: createToolRuntime({ tools: shop.tools, store }),
      });
      fact('interrupted', paused.type === 'interrupted');
      if (paused.type !== 'interrupted') return facts;
      runId = paused.runId;
      const [pending] = paused.pending;
      digest = pending?.argumentsDigest;
      pendingId = pending?.toolCallId;
      fact('pending', paused.pending.length);
      fact('pending-call', `${pending?.toolName} ${pending?.argumentsSummary}`);
      fact('pending-reason', pending?.reason);
      fact('ran-before-pause', `getOrder x${shop.reads.length}, refundOrder x${shop.refunds.length}`);
      fact('store', 'sqlite (a file in a temp folder)');
      fact('paused-by-pid', process.pid);
    } finally {
      await store.close?.();
    }
    const approve = JSON.stringify({ [pendingId ?? '']: { approve: true, argumentsDigest: digest } });
    const resumed = await inAnotherProcess(path, runId, approve);
    fact('resumed-by-pid', resumed.pid);
    fact('resumed-in-another-process', resumed.pid !== process.pid);
    fact('resumed', resumed.outcome ?? `refused: ${resumed.refused}`);
    const replay = await inAnotherProcess(path, runId, approve);
    fact('executions', shop.refunds.length + resumed.refunds + replay.refunds);
    fact('replay-refused', replay.refused ?? `no: ${replay.outcome}`);
    return facts;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function inAnotherProcess(path: string, runId: string, decisions: string): Promise<ChildReport> {
  const { stdout } = await promisify(execFile)(process.execPath, [...CHILD_ARGS, path, runId, decisions], {
    timeout: 30_000,
  });
  return JSON.parse(stdout) as ChildReport;
}
