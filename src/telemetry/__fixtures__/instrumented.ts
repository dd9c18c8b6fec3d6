import type { ToolExecutionPolicy } from '../../chain/policy.js';
import { createToolRuntime, type ToolRuntime } from '../../chain/runtime.js';
import type { RunWrapper } from '../../run/wrap-run.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { OtelInstrumentation } from '../otel-instrumentation.js';

/** A run's options with the instrumentation where each part goes: `wrapToolExecution` on the runtime, `wrapRun` on the loop. */
export function instrumented(
  tools: readonly AnyTool[],
  otel: OtelInstrumentation,
  policy: ToolExecutionPolicy = {},
): { readonly runtime: ToolRuntime; readonly wrapRun: RunWrapper } {
  return {
    runtime: createToolRuntime({ tools, ...policy, wrapToolExecution: otel.wrapToolExecution }),
    wrapRun: otel.wrapRun,
  };
}
