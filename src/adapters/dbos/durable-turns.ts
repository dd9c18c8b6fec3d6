import { createToolRuntime } from '../../chain/runtime.js';
import type { ToolRuntimeOptions } from '../../chain/tool-runtime-options.js';
import type { WrapToolExecution } from '../../chain/wrap-tool-execution.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import type { LoopOutcome } from '../../core/loop-outcome.js';
import type { Message } from '../../core/message.js';
import type { Model } from '../../core/model.js';
import type { ModelCallWrapper, RunOptions } from '../../run/loop-options.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import type { DbosWorkflows } from './dbos-workflows.js';

/** The run's settings a durable turn passes on to `runToolLoop` (the loop's model and runtime are the turns'). */
export type DurableRunSettings = Pick<
  RunOptions,
  'maxRoundTrips' | 'tokenBudget' | 'stopWhen' | 'modelRetries' | 'modelTimeoutMs' | 'includeContent'
>;

/** What `durableTurns` takes: the model, the tools and their policy, the run's settings, the workflow's name. */
export interface DurableTurnsOptions {
  /** The model each turn calls, each call a step. */
  readonly model: Model;
  /**
   * The tools and the policy, as `createToolRuntime` takes them. The turns make the runtime: its calls run
   * one at a time (`concurrency: 1`), so each tool execution starts its step in the model's order, the
   * order DBOS identifies steps by.
   */
  readonly runtime: ToolRuntimeOptions;
  /** The run's settings (round trips, budgets, model retries). */
  readonly run?: DurableRunSettings;
  /** The DBOS workflow's name (default `toolwarden.turn`); two `durableTurns` of one application need two. */
  readonly name?: string;
}

/** One turn of a conversation: its ids (the workflow's id is `<sessionId>:<turnId>`) and the messages so far. */
export interface DurableTurnInput {
  /** The conversation: the session its limits, guard memory and idempotency records are kept under. */
  readonly sessionId: string;
  /** The turn, unique within the session: the workflow runs once per turn. */
  readonly turnId: string;
  /** The conversation so far, ending with the user's message. */
  readonly messages: readonly Message[];
}

/** Guarded runs as DBOS workflows (see `durableTurns`). */
export interface DurableTurns {
  /**
   * Runs the turn as the workflow `<sessionId>:<turnId>`, or joins it when it exists (started here or in a
   * process that died: then DBOS recovers it on `launch()`), and resolves with its outcome.
   */
  run(input: DurableTurnInput): Promise<LoopOutcome>;
  /** The workflow id of a turn: `<sessionId>:<turnId>`. */
  workflowId(input: Pick<DurableTurnInput, 'sessionId' | 'turnId'>): string;
}

/**
 * Guarded runs as DBOS workflows, one per turn: each model call is a step (`model`) and each tool
 * execution a step (`tool:<name>`), so a process that dies mid-turn is recovered by the next one's
 * `DBOS.launch()` at the first unfinished step: a tool call that finished (its result checkpointed) never
 * runs again, and the model is not asked again what it already answered. The guard, limits, idempotency
 * and approvals are the runtime's, as everywhere; the workflow is the driver. Call it before
 * `DBOS.launch()` (it registers the workflow).
 *
 * A step that was running when the process died runs again (DBOS runs a step at least once). Keep the
 * runtime's default store for now: with a store the processes share, a recovered turn answers a finished
 * write from its idempotency record without its step, and DBOS stops the turn (it fails closed; the write
 * does not run twice).
 */
export function durableTurns(dbos: DbosWorkflows, options: DurableTurnsOptions): DurableTurns {
  if (typeof dbos?.registerWorkflow !== 'function' || typeof dbos.runStep !== 'function') {
    throw new InvalidOptionsError({
      option: 'dbos',
      message: 'must be the DBOS class of @dbos-inc/dbos-sdk@5',
    });
  }
  const { model, run: settings = {}, name = 'toolwarden.turn' } = options;
  const own = options.runtime.wrapToolExecution;
  const asStep: WrapToolExecution = (call, next) =>
    dbos.runStep(() => (own === undefined ? next() : own(call, next)), { name: `tool:${call.toolName}` });
  const runtime = createToolRuntime({ ...options.runtime, concurrency: 1, wrapToolExecution: asStep });
  const modelStep: ModelCallWrapper = (request, next) => dbos.runStep(() => next(request), { name: 'model' });
  const workflow = dbos.registerWorkflow(
    async (input: DurableTurnInput): Promise<LoopOutcome> =>
      runToolLoop({
        ...settings,
        model,
        runtime,
        messages: input.messages,
        sessionId: input.sessionId,
        turnId: input.turnId,
        wrapModelCall: modelStep,
      }),
    { name },
  );
  const workflowId = ({ sessionId, turnId }: Pick<DurableTurnInput, 'sessionId' | 'turnId'>) =>
    `${sessionId}:${turnId}`;
  return {
    workflowId,
    async run(input) {
      const handle = await dbos.startWorkflow(workflow, { workflowID: workflowId(input) })(input);
      return handle.getResult();
    },
  };
}
