import type { ResolvedLoopOptions } from './loop-options.js';
import type { LoopUsage, StopEvidence } from './loop-outcome.js';

export interface Spend {
  readonly roundTrips: number;
  readonly usage: LoopUsage;
  readonly elapsedMs: number;
  readonly cost: number;
}

/** Gate 1, the ceiling: whether one more model call is allowed. Pure. */
export function checkCeiling(
  spend: Spend,
  options: ResolvedLoopOptions,
): { readonly reason: 'max-round-trips' | 'budget-exhausted'; readonly evidence: StopEvidence } | undefined {
  if (spend.roundTrips >= options.maxRoundTrips) {
    return {
      reason: 'max-round-trips',
      evidence: { kind: 'ceiling', limit: 'round-trips', max: options.maxRoundTrips, used: spend.roundTrips },
    };
  }
  if (spend.usage.totalTokens >= options.tokenBudget) {
    return {
      reason: 'budget-exhausted',
      evidence: { kind: 'ceiling', limit: 'tokens', max: options.tokenBudget, used: spend.usage.totalTokens },
    };
  }
  if (spend.elapsedMs >= options.timeBudgetMs) {
    return {
      reason: 'budget-exhausted',
      evidence: { kind: 'ceiling', limit: 'time', max: options.timeBudgetMs, used: spend.elapsedMs },
    };
  }
  if (spend.cost >= options.costBudget) {
    return {
      reason: 'budget-exhausted',
      evidence: { kind: 'ceiling', limit: 'cost', max: options.costBudget, used: spend.cost },
    };
  }
  return undefined;
}
