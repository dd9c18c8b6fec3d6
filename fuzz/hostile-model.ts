import fc from 'fast-check';
import { type AssistantSpec, assistantSpec, materializeAssistant } from './hostile-calls.js';
import { materializeValue, type ValueSpec, valueSpec } from './hostile-values.js';
import { record } from './plain-record.js';

export type UsageSpec =
  | { readonly kind: 'normal'; readonly input: number; readonly output: number }
  /** Token counts no model reports, whose sum overflows to Infinity. */
  | { readonly kind: 'absurd' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'value'; readonly value: ValueSpec };

/** One model call of a scripted run. */
export type ModelStepSpec =
  | { readonly kind: 'respond'; readonly assistant: AssistantSpec; readonly usage: UsageSpec }
  | { readonly kind: 'answer'; readonly text: string }
  | { readonly kind: 'throw-sync'; readonly value: ValueSpec }
  | { readonly kind: 'reject'; readonly value: ValueSpec }
  /** Settles only when the request's signal aborts (the time budget, the caller, a stop). */
  | { readonly kind: 'hang-until-abort' }
  /** Resolves with something that is not a response. */
  | { readonly kind: 'garbage'; readonly value: ValueSpec };

function materializeUsage(spec: UsageSpec): unknown {
  switch (spec.kind) {
    case 'normal':
      return { inputTokens: spec.input, outputTokens: spec.output };
    case 'absurd':
      return { inputTokens: 1e308, outputTokens: 1e308 };
    case 'missing':
      return undefined;
    case 'value':
      return materializeValue(spec.value);
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

interface ModelRequestLike {
  readonly signal: AbortSignal;
}

/**
 * The model port, scripted with hostile steps. Past the end of the script it answers with text, so a
 * run ends when the loop lets it. Counts its calls (the round-trip oracle).
 */
export class HostileModel {
  calls = 0;
  readonly #steps: readonly ModelStepSpec[];

  constructor(steps: readonly ModelStepSpec[]) {
    this.#steps = steps;
  }

  generate(request: ModelRequestLike): Promise<never> {
    const step = this.#steps[this.calls] ?? { kind: 'answer', text: 'done' };
    this.calls++;
    return this.#answer(step, request) as Promise<never>;
  }

  #answer(step: ModelStepSpec, request: ModelRequestLike): Promise<unknown> {
    switch (step.kind) {
      case 'respond':
        return Promise.resolve({
          message: materializeAssistant(step.assistant),
          usage: materializeUsage(step.usage),
        });
      case 'answer':
        return Promise.resolve({
          message: { role: 'assistant', content: step.text },
          usage: { inputTokens: 3, outputTokens: 2 },
        });
      case 'throw-sync':
        throw materializeValue(step.value);
      case 'reject':
        return Promise.reject(materializeValue(step.value));
      case 'hang-until-abort': {
        const { signal } = request;
        return new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      case 'garbage':
        return Promise.resolve(materializeValue(step.value));
      default: {
        const unreachable: never = step;
        return unreachable;
      }
    }
  }
}

function usageSpec(): fc.Arbitrary<UsageSpec> {
  return fc.oneof(
    {
      weight: 20,
      arbitrary: record({
        kind: fc.constant('normal' as const),
        input: fc.integer({ min: 0, max: 5_000 }),
        output: fc.integer({ min: 0, max: 2_000 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'absurd' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'missing' as const }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('value' as const), value: valueSpec() }) },
  );
}

export function modelStepSpec(): fc.Arbitrary<ModelStepSpec> {
  return fc.oneof(
    {
      weight: 24,
      arbitrary: record({
        kind: fc.constant('respond' as const),
        assistant: assistantSpec(),
        usage: usageSpec(),
      }),
    },
    {
      weight: 3,
      arbitrary: record({ kind: fc.constant('answer' as const), text: fc.string({ maxLength: 20 }) }),
    },
    { weight: 1, arbitrary: record({ kind: fc.constant('throw-sync' as const), value: valueSpec() }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('reject' as const), value: valueSpec() }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'hang-until-abort' as const }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('garbage' as const), value: valueSpec() }) },
  );
}
