/**
 * The calls of DBOS Transact (`@dbos-inc/dbos-sdk@5`, its `DBOS` class) a durable turn makes, by their
 * shape: the adapter never imports the SDK, so `toolwarden/dbos` loads without it and takes the `DBOS` your
 * application configured (`DBOS.setConfig`, `DBOS.launch`).
 */
export interface DbosWorkflows {
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
}
