import fc from 'fast-check';
import { record } from './plain-record.js';
import type { FuzzPolicy } from './targets.js';

/** Valid, varied options: only what the model and the tools do is hostile. Limits are small, to be hit. */
export function policySpec(): fc.Arbitrary<FuzzPolicy> {
  return record({
    concurrency: fc.integer({ min: 1, max: 4 }),
    writeConcurrency: fc.integer({ min: 1, max: 2 }),
    perToolLimit: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(40)),
    totalLimit: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant(150)),
    onLimitExceeded: fc.constantFrom('throw' as const, 'feedback' as const),
    unknownTool: fc.oneof(
      { weight: 6, arbitrary: fc.constant('feedback' as const) },
      { weight: 1, arbitrary: fc.constant('throw' as const) },
    ),
    onContractViolation: fc.constantFrom('feedback' as const, 'throw' as const, 'warn' as const),
    timeoutMs: fc.integer({ min: 1, max: 3 }),
    readRetries: fc.integer({ min: 0, max: 2 }),
    writeRetries: fc.integer({ min: 0, max: 1 }),
  });
}

/** When the caller aborts its request: never (mostly), before it starts, or soon after. */
export type AbortSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'before' }
  | { readonly kind: 'microtask' }
  | { readonly kind: 'after'; readonly ms: number };

export function abortSpec(): fc.Arbitrary<AbortSpec> {
  return fc.oneof(
    { weight: 20, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'before' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'microtask' as const }) },
    {
      weight: 1,
      arbitrary: record({ kind: fc.constant('after' as const), ms: fc.integer({ min: 0, max: 5 }) }),
    },
  );
}

/** The caller's controller for one run. Its reason is a plain Error, so it is recognizable when it comes back. */
export function startAbort(spec: AbortSpec): {
  readonly signal: AbortSignal | undefined;
  readonly controller: AbortController;
} {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error('fuzz: the caller aborted'));
  switch (spec.kind) {
    case 'none':
      return { signal: undefined, controller };
    case 'before':
      abort();
      break;
    case 'microtask':
      queueMicrotask(abort);
      break;
    case 'after':
      setTimeout(abort, spec.ms);
      break;
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
  return { signal: controller.signal, controller };
}
