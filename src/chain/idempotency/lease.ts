import { DEFAULT_IDEMPOTENCY_LEASE_MARGIN_MS } from '../../core/defaults.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { IdempotencySettings } from '../../tools/idempotency-options.js';
import type { ResolvedPolicy } from '../policy.js';
import type { IdempotencyRecord } from './idempotency-record.js';

/**
 * How long a claim holds before it is taken to be of a process that died: the tool's own `leaseMs`, else
 * the longest its attempts can take (the timeout of each, the longest retry delay between them) plus a
 * margin for delivering and recording the result. A shorter lease would let a slow call be run twice.
 */
export function leaseFor(tool: AnyTool, settings: IdempotencySettings, policy: ResolvedPolicy): number {
  if (settings.leaseMs !== undefined) return settings.leaseMs;
  const retries = policy.retriesFor(tool);
  return (
    policy.timeoutFor(tool) * (retries + 1) +
    policy.maxDelayMs * retries +
    DEFAULT_IDEMPOTENCY_LEASE_MARGIN_MS
  );
}

/**
 * Whether a started record's lease has passed, by this host's clock against the claimer's: the hosts
 * sharing a store must agree on the time to within the lease margin.
 */
export function leasePassed(record: IdempotencyRecord & { readonly state: 'started' }): boolean {
  return Date.now() - record.startedAt > record.leaseMs;
}
