import { createHash } from 'node:crypto';
import type { ResumeDecision } from '../../chain/resume-decision.js';
import { createDrivenRuntime } from '../../chain/runtime.js';
import type { ToolRuntimeOptions } from '../../chain/tool-runtime-options.js';
import { DEFAULT_APPROVAL_TTL_MS, DEFAULT_DURABLE_STORE_WAIT_MS } from '../../core/defaults.js';
import { IdempotencyError } from '../../core/errors/idempotency-error.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import type { LoopOutcome } from '../../core/loop-outcome.js';
import type { Message } from '../../core/message.js';
import type { Model } from '../../core/model.js';
import { checkNumberOption } from '../../options/check-option.js';
import { checkOptionNames, type OptionNames, optionNameSet } from '../../options/check-option-names.js';
import type { ModelCallWrapper, RunOptions } from '../../run/loop-options.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { canonicalJson } from '../../serialize/canonical-json.js';
import { awaitDecisions } from './await-decisions.js';
import { dbosCallStep } from './dbos-call-step.js';
import type { DbosWorkflows } from './dbos-workflows.js';
import { stepStore } from './step-store.js';
import { decideTurn, readTurnApproval, TURN_APPROVAL_EVENT, type TurnApproval } from './turn-approval.js';

/** The run's settings a durable turn passes on to `runToolLoop` (the loop's model and runtime are the turns'). */
export type DurableRunSettings = Pick<
  RunOptions,
  | 'maxRoundTrips'
  | 'tokenBudget'
  | 'stopWhen'
  | 'modelRetries'
  | 'modelTimeoutMs'
  | 'includeContent'
  | 'onEvent'
>;

/** What `durableTurns` takes: the model, the tools and their policy, the run's settings, the workflow's name. */
export interface DurableTurnsOptions {
  /** The model each turn calls, each call a step. */
  readonly model: Model;
  /**
   * The tools and the policy, as `createToolRuntime` takes them. The turns make the runtime: its calls run
   * one at a time (`concurrency: 1`), so each call starts its step in the model's order, the order DBOS
   * identifies steps by. Give it a store the processes share (`toolwarden/postgres`): a step cut off by a
   * crash runs again, and its write is then answered from its idempotency record.
   */
  readonly runtime: ToolRuntimeOptions;
  /** The run's settings (round trips, budgets, model retries). */
  readonly run?: DurableRunSettings;
  /** The DBOS workflow's name (default `toolwarden.turn`); two `durableTurns` of one application need two. */
  readonly name?: string;
  /** How long a turn waits for a decision on calls that need one (default 24 hours); then they are refused. */
  readonly approvalWaitMs?: number;
  /** How long a tool step waits for a store that fails before its call could start (default 5 minutes). */
  readonly storeWaitMs?: number;
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

/** A turn, by its ids. */
export type DurableTurnRef = Pick<DurableTurnInput, 'sessionId' | 'turnId'>;

/** Guarded runs as DBOS workflows (see `durableTurns`). */
export interface DurableTurns {
  /**
   * Runs the turn as the workflow `<sessionId>:<turnId>`, or joins it when it exists (started here or in a
   * process that died: then DBOS recovers it on `launch()`), and resolves with its outcome (after any
   * approval it waits for). A turn id used before with other input is refused (`IdempotencyError`,
   * `IDEMPOTENCY_CONFLICT`), never answered with the other turn's outcome.
   */
  run(input: DurableTurnInput): Promise<LoopOutcome>;
  /** Starts the turn (checked as `run` does) and resolves with its workflow id, without waiting for it. */
  start(input: DurableTurnInput): Promise<string>;
  /** Where the turn's approval stands (`waiting` with its calls), or null when it never waited. */
  approval(turn: DurableTurnRef): Promise<TurnApproval | null>;
  /** Decides the calls the turn waits on (see `decideTurn`, which does the same from a `DBOSClient`). */
  decide(turn: DurableTurnRef, decisions: Readonly<Record<string, ResumeDecision>>): Promise<void>;
  /** The workflow id of a turn: `<sessionId>:<turnId>`. */
  workflowId(turn: DurableTurnRef): string;
}

const DURABLE_TURNS_OPTIONS = optionNameSet({
  model: true,
  runtime: true,
  run: true,
  name: true,
  approvalWaitMs: true,
  storeWaitMs: true,
} satisfies OptionNames<DurableTurnsOptions>);

/** The workflow's argument: the turn and the digest of it that a reused id is compared by. */
interface TurnArgument extends DurableTurnInput {
  readonly digest: string;
}

/**
 * Guarded runs as DBOS workflows, one per turn: each model call is a step (`model`), each tool call a
 * step (`tool:<name>`: its idempotency record and its execution together), and each call to the store
 * between them a step (`store:<operation>`: limits, the guard's memory), so a process that dies
 * mid-turn is recovered by the next one's `DBOS.launch()` at the first unfinished step: a call whose step
 * finished never runs again, and the model is not asked again what it already answered. Calls that need
 * a decision wait in the workflow (`recv`, durable) for `decide`. The guard, limits, idempotency and
 * approvals are the runtime's, as everywhere; the workflow is the driver. Call it before `DBOS.launch()`
 * (it registers the workflow). See docs/durable-runs.md.
 */
export function durableTurns(dbos: DbosWorkflows, options: DurableTurnsOptions): DurableTurns {
  if (typeof dbos?.registerWorkflow !== 'function' || typeof dbos.runStep !== 'function') {
    throw new InvalidOptionsError({
      option: 'dbos',
      message: 'must be the DBOS class of @dbos-inc/dbos-sdk@5',
    });
  }
  checkOptionNames(options, DURABLE_TURNS_OPTIONS, { of: 'durableTurns' });
  const { model, run: settings = {}, name = 'toolwarden.turn' } = options;
  const approvalWaitMs =
    checkNumberOption(options.approvalWaitMs, { option: 'approvalWaitMs', min: 1 }) ??
    DEFAULT_APPROVAL_TTL_MS;
  const storeWaitMs =
    checkNumberOption(options.storeWaitMs, { option: 'storeWaitMs', min: 0 }) ??
    DEFAULT_DURABLE_STORE_WAIT_MS;
  const store = options.runtime.store;
  const runtime = createDrivenRuntime(
    { ...options.runtime, concurrency: 1, ...(store === undefined ? {} : { store: stepStore(store, dbos) }) },
    { wrapCallStep: dbosCallStep(dbos, storeWaitMs) },
  );
  const modelStep: ModelCallWrapper = (request, next) => dbos.runStep(() => next(request), { name: 'model' });
  const loop = { ...settings, model, runtime, wrapModelCall: modelStep };
  const workflowId = ({ sessionId, turnId }: DurableTurnRef) => `${sessionId}:${turnId}`;

  const workflow = dbos.registerWorkflow(
    async (input: TurnArgument): Promise<LoopOutcome> => {
      const ids = { sessionId: input.sessionId, turnId: input.turnId };
      let outcome = await runToolLoop({ ...loop, ...ids, messages: input.messages });
      let round = 0;
      while (outcome.type === 'interrupted') {
        round += 1;
        const decisions = await awaitDecisions(
          dbos,
          workflowId(input),
          round,
          outcome.pending,
          approvalWaitMs,
        );
        outcome = await runToolLoop({ ...loop, ...ids, from: outcome.state, decisions });
      }
      if (round > 0) await dbos.setEvent(TURN_APPROVAL_EVENT, { state: 'done' } satisfies TurnApproval);
      return outcome;
    },
    { name },
  );

  async function start(input: DurableTurnInput) {
    const argument = turnArgument(input);
    const id = workflowId(argument);
    const handle = await dbos.startWorkflow(workflow, { workflowID: id })(argument);
    const status = await dbos.getWorkflowStatus(id);
    const started = status?.input?.[0] as Partial<TurnArgument> | undefined;
    if (started?.digest !== argument.digest) {
      throw new IdempotencyError({ reason: 'conflict', toolName: name, toolCallId: id, claimedBy: id });
    }
    return { id, handle };
  }
  return {
    workflowId,
    async run(input) {
      return (await start(input)).handle.getResult();
    },
    async start(input) {
      return (await start(input)).id;
    },
    approval: (turn) => readTurnApproval(dbos, workflowId(turn)),
    decide: (turn, decisions) => decideTurn(dbos, workflowId(turn), decisions),
  };
}

/** The turn checked, with the digest of its ids and messages (a reused id with other input differs). */
function turnArgument(input: DurableTurnInput): TurnArgument {
  const { sessionId, turnId, messages } = (input ?? {}) as Partial<DurableTurnInput>;
  for (const [option, id] of [
    ['sessionId', sessionId],
    ['turnId', turnId],
  ] as const) {
    if (typeof id !== 'string' || id === '' || id.length > 200) {
      throw new InvalidOptionsError({
        option,
        message: 'must be a non-empty string of at most 200 characters',
      });
    }
  }
  if (!Array.isArray(messages)) {
    throw new InvalidOptionsError({ option: 'messages', message: 'must be an array of messages' });
  }
  const turn = { sessionId: sessionId as string, turnId: turnId as string, messages };
  const digest = createHash('sha256').update(canonicalJson(turn)).digest('hex');
  return { ...turn, digest };
}
