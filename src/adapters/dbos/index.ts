// toolwarden/dbos: guarded runs as DBOS Transact workflows (`@dbos-inc/dbos-sdk@5`, an optional peer
// dependency: install it beside toolwarden, and pass its DBOS class).
export type { DbosMessages, DbosWorkflows } from './dbos-workflows.js';
export {
  type DurableRunSettings,
  type DurableTurnInput,
  type DurableTurnRef,
  type DurableTurns,
  type DurableTurnsOptions,
  durableTurns,
} from './durable-turns.js';
export { decideTurn, readTurnApproval, type TurnApproval } from './turn-approval.js';
