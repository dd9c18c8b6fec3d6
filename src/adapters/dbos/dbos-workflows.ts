/**
 * The calls of DBOS Transact (`@dbos-inc/dbos-sdk@5`, its `DBOS` class) a durable turn makes, by their
 * shape: the adapter never imports the SDK, so `toolwarden/dbos` loads without it and takes the `DBOS` your
 * application configured (`DBOS.setConfig`, `DBOS.launch`).
 */
export interface DbosWorkflows extends DbosMessages {
  /** Registers a workflow function under a name (before `DBOS.launch()`). */
  registerWorkflow<Args extends unknown[], Return>(
    func: (...args: Args) => Promise<Return>,
    config?: { name?: string },
  ): (...args: Args) => Promise<Return>;
  /** Runs `func` as a step of the workflow in progress: checkpointed once it returns, never run again after. */
  runStep<Return>(func: () => Promise<Return>, config?: { name?: string }): Promise<Return>;
  /** Starts a workflow under an id; a second start under the same id joins the first. */
  startWorkflow<Args extends unknown[], Return>(
    target: (...args: Args) => Promise<Return>,
    params?: { workflowID?: string },
  ): (...args: Args) => Promise<{ getResult(): Promise<Return> }>;
  /** The workflow's status, with the arguments it was started with; null when there is none. */
  getWorkflowStatus(workflowID: string): Promise<{ readonly input?: unknown[] } | null>;
  /** Inside a workflow: publishes a value under a key, for `getEvent` in any process. */
  setEvent<T>(key: string, value: T): Promise<void>;
  /** Inside a workflow: the next message on a topic, or null at `deadlineEpochMS` (a durable wait). */
  recv<T>(topic?: string, options?: { deadlineEpochMS?: number }): Promise<T | null>;
}

/**
 * What sends a decision to a waiting turn: the `DBOS` class in a launched process, or a `DBOSClient`
 * (`DBOSClient.create({ systemDatabaseUrl })`) in any other process, without launching.
 */
export interface DbosMessages {
  /** The value a workflow published under `key` (waiting up to `timeoutSeconds` for it), or null. */
  getEvent<T>(workflowID: string, key: string, timeoutSeconds?: number): Promise<T | null>;
  /** Sends a message to a workflow; a second send with the same idempotency key is dropped. */
  send<T>(destinationID: string, message: T, topic?: string, idempotencyKey?: string): Promise<void>;
}
