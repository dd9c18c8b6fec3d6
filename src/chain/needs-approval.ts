import type { BeforeToolCallContext, BeforeToolCallInput } from './before-tool-call.js';

/** The reason of a pending call that waits because `needsApproval` said so. */
export const NEEDS_APPROVAL_REASON = 'needs approval';

/**
 * A tool's `needsApproval`: `true` (every call waits for a person), or a function of the validated
 * arguments (`({ amount }) => amount > 100`). A call that needs approval pauses its run as `interrupted`;
 * the calls of its response that need none run.
 */
export type NeedsApproval<TArgs = unknown> =
  | boolean
  | ((args: TArgs, context: BeforeToolCallContext) => boolean | Promise<boolean>);

/** The policy's `needsApproval`: `true`, or a function of the whole call (its tool, its arguments). */
export type PolicyNeedsApproval =
  | boolean
  | ((call: BeforeToolCallInput, context: BeforeToolCallContext) => boolean | Promise<boolean>);

export type ApprovalVerdict = boolean | { readonly type: 'callback-failure'; readonly error: unknown };

/**
 * Asks the tool's `needsApproval`, then the policy's (unless the tool's said yes). Never throws: a function
 * that throws, rejects or answers anything but a boolean is a caller defect.
 */
export async function needsApproval(
  call: BeforeToolCallInput,
  context: BeforeToolCallContext,
  rules: {
    // biome-ignore lint/suspicious/noExplicitAny: a tool's rule takes that tool's argument type.
    readonly tool: NeedsApproval<any> | undefined;
    readonly policy: PolicyNeedsApproval | undefined;
  },
): Promise<ApprovalVerdict> {
  for (const [rule, input] of [
    [rules.tool, call.arguments],
    [rules.policy, call],
  ] as const) {
    if (rule === undefined || rule === false) continue;
    if (rule === true) return true;
    let answer: unknown;
    try {
      answer = await (rule as (input: unknown, context: BeforeToolCallContext) => unknown)(input, context);
    } catch (error) {
      return { type: 'callback-failure', error };
    }
    if (answer === true) return true;
    if (answer !== false) {
      return {
        type: 'callback-failure',
        error: new TypeError('needsApproval must return true or false (or a promise of one)'),
      };
    }
  }
  return false;
}
