import { ToolInputError } from '../../core/errors/tool-input-error.js';
import { TransientToolError } from '../../core/errors/transient-tool-error.js';
import { type AnyTool, defineTool } from '../../tools/define-tool.js';

/** How often each reference tool's body ran: the tests count executions, not attempts to call. */
export interface ReferenceCounters {
  noArgs: number;
  counted: number;
  flaky: number;
}

/**
 * The tools of the Spring AI 2.0.1 reference experiment (`echo`, `noArgs`, `explode`, `counted`,
 * `addNumbers`), answering literally what the experiment's tools answered (`noArgs` returns
 * `normalized-empty-arguments`, `explode` rejects the call with `business rule rejected the call`, a
 * `ToolInputError`: a text written for the model), plus two that show a driver's error, withheld or opted in
 * and redacted (`leaky`), and a retried transient failure (`flaky`).
 * Each call makes fresh counters: nothing is shared between runs. The chain tests' own copy of the
 * demo's tools (`src/demo/reference-tools.ts`), so that the shipped demo can change without them.
 */
export function createReferenceTools(): { tools: AnyTool[]; counters: ReferenceCounters } {
  const counters: ReferenceCounters = { noArgs: 0, counted: 0, flaky: 0 };
  const tools: AnyTool[] = [
    defineTool({
      name: 'echo',
      description: 'Returns the text in upper case.',
      input: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
      effect: 'read',
      execute: ({ text }: { text: string }) => text.toUpperCase(),
    }),
    defineTool({
      name: 'noArgs',
      description: 'Takes no arguments and says so.',
      input: { type: 'object', properties: {}, additionalProperties: false },
      effect: 'read',
      execute: () => {
        counters.noArgs++;
        return 'normalized-empty-arguments';
      },
    }),
    defineTool({
      name: 'explode',
      description: 'Always fails.',
      effect: 'read',
      execute: () => {
        throw new ToolInputError({ message: 'business rule rejected the call' });
      },
    }),
    defineTool({
      name: 'counted',
      description: 'Counts its calls.',
      // A counter is a side effect: a write. Every call is a new count, not a duplicate of the one before,
      // so it opts out of idempotency: identical calls each run (identical reads share one run).
      effect: 'write',
      idempotency: false,
      execute: () => ++counters.counted,
    }),
    defineTool({
      name: 'addNumbers',
      description: 'Adds two numbers.',
      input: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      effect: 'read',
      execute: ({ a, b }: { a: number; b: number }) => a + b,
    }),
    defineTool({
      name: 'leaky',
      description: 'Fails with an error message full of internals.',
      effect: 'read',
      execute: () => {
        throw new Error(
          'Customer lookup failed for jane.doe@example.com: connect postgres://app:s3cr3t-pass@db-7.prod.internal.example.net:5432/crm (api key sk-proj-Abc123Def456Ghi789Jkl012Mno345)',
        );
      },
    }),
    defineTool({
      name: 'flaky',
      description: 'Fails twice with a temporary error, then answers.',
      effect: 'read',
      retries: 2,
      execute: () => {
        counters.flaky++;
        if (counters.flaky <= 2) throw new TransientToolError({ message: 'upstream returned 503' });
        return { quote: 'EUR/USD 1.09' };
      },
    }),
  ];
  return { tools, counters };
}
