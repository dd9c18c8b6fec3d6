import { createHash } from 'node:crypto';
import { durableTurns } from '../adapters/dbos/durable-turns.js';
import { createPostgresStore } from '../adapters/postgres/postgres-store.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Model } from '../core/model.js';
import type { RunEvent } from '../core/run-event.js';
import type { AnyTool } from '../tools/define-tool.js';

/** What `toolwarden run --durable` runs: one turn on the database at `url`. */
export interface DurableRunRequest {
  readonly url: string;
  readonly model: Model;
  readonly tools: readonly AnyTool[];
  readonly prompt: string;
  readonly sessionId: string;
  /** Undefined: a digest of the prompt, so the same command again is the same turn. */
  readonly turnId: string | undefined;
  /** DBOS's application version: the turns a later process recovers are those of the same version. */
  readonly version: string;
  readonly settings: {
    readonly maxRoundTrips?: number;
    readonly modelRetries?: number;
    readonly modelTimeoutMs?: number;
    readonly onEvent: (event: RunEvent) => void;
  };
}

/** The schema of toolwarden's records in the database DBOS runs on. */
export const DURABLE_CLI_SCHEMA = 'toolwarden';

/**
 * One turn as a DBOS workflow on PostgreSQL (`@dbos-inc/dbos-sdk` and `pg` installed beside toolwarden):
 * DBOS's tables in the database at `url`, toolwarden's records under the `toolwarden` schema of it. On
 * launch DBOS recovers this version's turns a process left unfinished; the turn then runs, or joins the
 * one recovered (the same session and turn id), and its outcome is returned.
 */
export async function runDurableTurn(request: DurableRunRequest): Promise<LoopOutcome> {
  const { DBOS } = await import('@dbos-inc/dbos-sdk');
  DBOS.setConfig({
    name: 'toolwarden-run',
    systemDatabaseUrl: request.url,
    applicationVersion: request.version,
    logLevel: 'warn',
  });
  const store = await createPostgresStore({ url: request.url }, { schema: DURABLE_CLI_SCHEMA });
  try {
    const turns = durableTurns(DBOS, {
      model: request.model,
      runtime: { tools: request.tools, store },
      run: request.settings,
    });
    await DBOS.launch();
    try {
      const turnId =
        request.turnId ?? `turn-${createHash('sha256').update(request.prompt).digest('hex').slice(0, 16)}`;
      return await turns.run({
        sessionId: request.sessionId,
        turnId,
        messages: [{ role: 'user', content: request.prompt }],
      });
    } finally {
      await DBOS.shutdown();
    }
  } finally {
    await store.close();
  }
}
