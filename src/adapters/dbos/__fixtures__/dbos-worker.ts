// What every durable test's process does first: DBOS configured on the test's database (its own
// application version unless the test names one), the runtime's records in a PostgreSQL store under the
// test's schema on the shared database, and the five-call turn registered. Then the caller launches.
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { ToolRuntimeOptions } from '../../../chain/tool-runtime-options.js';
import { createPostgresStore, type PostgresStore } from '../../postgres/postgres-store.js';
import type { DbosWorkflows } from '../dbos-workflows.js';
import { type DurableTurns, type DurableTurnsOptions, durableTurns } from '../durable-turns.js';
import { effectsLog, scriptedModel, turnTools } from './five-call-turn.js';

export interface WorkerSetup {
  /** The DBOS system database (a database of the test's own). */
  readonly url: string;
  readonly effects: string;
  /** The schema of the runtime's store on the shared database. */
  readonly schema: string;
  /** The store's URL when not the shared database's (through a proxy the test cuts). */
  readonly storeUrl?: string;
  /** DBOS's application version; undefined: computed by DBOS from the registered workflows. */
  readonly version?: string;
  /** Tools that need approval. */
  readonly approvals?: readonly string[];
  /** In place of the DBOS class (a wrapper that counts or stops steps). */
  readonly dbos?: DbosWorkflows;
  /** Runs when the model is called in round n, after it is logged. */
  readonly onModel?: (round: number, sessionId: string) => void | Promise<void>;
  /** Runs in each tool execution, after it is logged. */
  readonly onTool?: (name: string, sessionId: string | undefined) => void | Promise<void>;
  readonly turns?: Partial<Pick<DurableTurnsOptions, 'approvalWaitMs' | 'storeWaitMs' | 'run'>>;
  /** The runtime's call limits. */
  readonly limits?: ToolRuntimeOptions['limits'];
  /** DBOS's log level (default error: the tests read stdout). */
  readonly logLevel?: string;
}

export async function setUpWorker(
  setup: WorkerSetup,
): Promise<{ turns: DurableTurns; store: PostgresStore; runtime: ToolRuntimeOptions }> {
  const note = effectsLog(setup.effects);
  DBOS.setConfig({
    name: 'toolwarden-durable-test',
    systemDatabaseUrl: setup.url,
    ...(setup.version === undefined ? {} : { applicationVersion: setup.version }),
    logLevel: setup.logLevel ?? 'error',
  });
  const store = await createPostgresStore(
    { url: setup.storeUrl ?? setup.url.replace(/\/[^/]*$/, '/postgres') },
    { schema: setup.schema },
  );
  const tools = turnTools(async (name, session) => {
    note(name, session);
    await setup.onTool?.(name, session);
  }, setup.approvals);
  const model = scriptedModel(async (round, session) => {
    note(`model-${round}`, session);
    await setup.onModel?.(round, session);
  });
  const runtime: ToolRuntimeOptions = {
    tools,
    store,
    ...(setup.limits === undefined ? {} : { limits: setup.limits }),
  };
  const turns = durableTurns(setup.dbos ?? DBOS, { model, runtime, ...setup.turns });
  return { turns, store, runtime };
}

/** A line of JSON on stdout (DBOS may log there too: the tests read the lines that parse). */
export function report(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** The outcome as the tests compare it. */
export function summary(outcome: {
  type: string;
  text?: string;
  toolCalls: number;
  messages: readonly { role: string; content?: unknown; toolCallId?: string }[];
}) {
  return {
    type: outcome.type,
    text: outcome.text,
    toolCalls: outcome.toolCalls,
    messages: outcome.messages.map((message) => ({
      role: message.role,
      ...(message.toolCallId === undefined ? {} : { toolCallId: message.toolCallId }),
      content: message.content,
    })),
  };
}
