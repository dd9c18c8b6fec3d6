import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { OptionNames } from '../options/check-option-names.js';
import { POLICY_OPTIONS } from './policy.js';
import { buildToolRuntime, type ToolRuntime, type ToolRuntimeOptions } from './runtime.js';

/**
 * What `runToolLoop` runs its calls with: a runtime (`createToolRuntime`), and then none of the options
 * that build one; or the tools and a policy to build one for this run alone (the one-off form, which keeps
 * nothing between runs).
 */
export type RuntimeInput =
  | ({ readonly runtime: ToolRuntime } & { readonly [K in keyof ToolRuntimeOptions]?: never })
  | (ToolRuntimeOptions & { readonly runtime?: undefined });

/** The options of a `RuntimeInput`, by name. */
export const RUNTIME_INPUT_OPTIONS: OptionNames<RuntimeInput> = {
  ...POLICY_OPTIONS,
  tools: true,
  runtime: true,
};

/** The ids that name state kept across calls: a session's, a turn's. */
export interface StateIds {
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
}

/**
 * The runtime an input names, or one built from its tools and policy for this run alone. Refused with
 * `InvalidOptionsError` rather than ignored: an option that builds a runtime given next to a runtime, and a
 * one-off form given a session or a turn (`ids`) but no `store`: the runtime it builds, and the memory store
 * that comes with it, last one call, so what the session or turn keeps (write records, call counts, the loop
 * guard's memory) would be lost between calls. With an explicit `store`, that state lives there.
 */
export function runtimeOf(input: RuntimeInput, form: string, ids: StateIds): ToolRuntime {
  const { runtime } = input;
  if (runtime !== undefined) {
    const given = input as Readonly<Record<string, unknown>>;
    for (const option of Object.keys(RUNTIME_INPUT_OPTIONS)) {
      if (option === 'runtime' || given[option] === undefined) continue;
      throw new InvalidOptionsError({
        option,
        message: `belongs in createToolRuntime({ tools, ${option}, ... }), not next to a runtime: the runtime has its tools and policy already, and ${form} would not change them`,
      });
    }
    if (!isRuntime(runtime)) {
      throw new InvalidOptionsError({
        option: 'runtime',
        message: 'must be a runtime made by createToolRuntime',
      });
    }
    return runtime;
  }
  if (input.tools === undefined) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'is required (or a runtime made by createToolRuntime)',
    });
  }
  if (input.store === undefined) {
    const option =
      ids.sessionId !== undefined ? 'sessionId' : ids.turnId !== undefined ? 'turnId' : undefined;
    if (option !== undefined) {
      throw new InvalidOptionsError({
        option,
        message: `${form} with tools is a one-off form: it builds a runtime, and a memory store, for this call alone and keeps no state between calls, so what the ${option === 'sessionId' ? 'session' : 'turn'} keeps in the store (records of its writes, its call counts, a loop's guard memory) would be lost. Build the runtime once with createToolRuntime({ tools, store }) and pass runtime, or pass the store here`,
      });
    }
  }
  return buildToolRuntime(input);
}

function isRuntime(value: unknown): value is ToolRuntime {
  if (typeof value !== 'object' || value === null) return false;
  const runtime = value as Partial<ToolRuntime>;
  return (
    typeof runtime.executeToolCalls === 'function' &&
    typeof runtime.tools === 'object' &&
    typeof runtime.policy === 'object'
  );
}
