import { createHash } from 'node:crypto';
import type { JsonSchema } from '../../../core/json-schema.js';
import { canonicalArguments } from '../../../serialize/canonical-json.js';
import { storeKey } from '../../../store/store-key.js';
import { defineTool, type Tool } from '../../../tools/define-tool.js';
import type { IdempotencyOptions } from '../../../tools/idempotency-options.js';
import type { ToolContext } from '../../../tools/tool-context.js';

export interface ChargeArgs {
  readonly order: string;
  readonly cents?: number;
}

/** What a charge tool did: every execution, with its arguments (the side effect a test counts). */
export interface ChargeLedger {
  readonly charges: ChargeArgs[];
}

/**
 * A write tool that charges an order: each execution is a charge in the ledger. `run` replaces what an
 * execution does after it is counted (fail, hang, wait for a signal).
 */
export function chargeTool(
  options: {
    readonly idempotency?: false | IdempotencyOptions<ChargeArgs>;
    readonly timeoutMs?: number;
    readonly retries?: number;
    /** An output contract (a JSON Schema) the chain checks each result against, with `feedback`. */
    readonly output?: JsonSchema;
    readonly run?: (args: ChargeArgs, context: ToolContext, count: number) => unknown;
  } = {},
): { readonly tool: Tool<ChargeArgs, unknown>; readonly ledger: ChargeLedger } {
  const ledger: ChargeLedger = { charges: [] };
  const tool = defineTool<ChargeArgs, unknown>({
    name: 'charge',
    description: 'Charges an order.',
    effect: 'write',
    input: {
      type: 'object',
      properties: { order: { type: 'string' }, cents: { type: 'number' } },
      required: ['order'],
    },
    ...(options.idempotency === undefined ? {} : { idempotency: options.idempotency }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.output === undefined
      ? {}
      : { output: options.output, onContractViolation: 'feedback' as const }),
    execute: (args, context) => {
      ledger.charges.push(args);
      const count = ledger.charges.length;
      return options.run === undefined
        ? { charged: args.order, receipt: `R-${count}` }
        : options.run(args, context, count);
    },
  });
  return { tool, ledger };
}

/** The record key of a `charge` call in a session under the default key (what a dead process leaves behind). */
export function chargeRecordKey(sessionId: string, args: object): string {
  const digest = createHash('sha256')
    .update(canonicalArguments(JSON.stringify(args)))
    .digest('hex');
  return storeKey(sessionId, 'idem', 'charge', digest);
}

/** The started record a process leaves when it dies while the tool runs, claimed `ageMs` ago. */
export function abandonedClaim(args: object, ageMs: number, leaseMs: number): unknown {
  const argumentsDigest = createHash('sha256')
    .update(canonicalArguments(JSON.stringify(args)))
    .digest('hex');
  return {
    v: 1,
    state: 'started',
    argumentsDigest,
    toolCallId: 'dead-1',
    startedAt: Date.now() - ageMs,
    leaseMs,
  };
}
