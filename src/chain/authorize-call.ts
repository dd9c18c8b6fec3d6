import type { BeforeToolCallContext, BeforeToolCallInput } from './before-tool-call.js';

/**
 * What `authorize` answers: `true` (or `{ allowed: true }`) lets the call go on to the other checks;
 * `false` or `{ allowed: false, reason? }` denies it. The reason is for developers (the audit event); the
 * model never sees it.
 */
export type AuthorizeAnswer = boolean | { readonly allowed: boolean; readonly reason?: string };

/**
 * Whether the caller may make this call. It sees the validated call and the caller's `data` (roles, a
 * tenant), never what the model claims about itself. Asked for every call, before any approval: an
 * approval never grants a permission. A callback that throws, rejects or answers anything else (`undefined`
 * included) is a caller defect, and the call does not run.
 */
export type Authorize = (
  call: BeforeToolCallInput,
  context: BeforeToolCallContext,
) => AuthorizeAnswer | Promise<AuthorizeAnswer>;

export type AuthorizeVerdict =
  | { readonly type: 'allowed' }
  | { readonly type: 'denied'; readonly reason: string }
  | { readonly type: 'callback-failure'; readonly error: unknown };

/** The reason of a denial whose callback gave none. */
const NO_REASON = 'authorize denied the call';

/** Asks the tool's `authorize`, then the policy's (unless the tool's denied). Never throws. */
export async function authorizeCall(
  call: BeforeToolCallInput,
  context: BeforeToolCallContext,
  checks: { readonly tool: Authorize | undefined; readonly policy: Authorize | undefined },
): Promise<AuthorizeVerdict> {
  for (const check of [checks.tool, checks.policy]) {
    if (check === undefined) continue;
    let answer: unknown;
    try {
      answer = await check(call, context);
    } catch (error) {
      return { type: 'callback-failure', error };
    }
    const verdict = readAnswer(answer);
    if (verdict.type !== 'allowed') return verdict;
  }
  return { type: 'allowed' };
}

function readAnswer(answer: unknown): AuthorizeVerdict {
  if (answer === true) return { type: 'allowed' };
  if (answer === false) return { type: 'denied', reason: NO_REASON };
  if (typeof answer === 'object' && answer !== null) {
    try {
      const { allowed, reason } = answer as { allowed?: unknown; reason?: unknown };
      if (typeof allowed === 'boolean' && (reason === undefined || typeof reason === 'string')) {
        return allowed ? { type: 'allowed' } : { type: 'denied', reason: reason ?? NO_REASON };
      }
    } catch {
      // A throwing getter or Proxy trap: a defect, below.
    }
  }
  return {
    type: 'callback-failure',
    error: new TypeError('authorize must return true, false or { allowed, reason? } (or a promise of one)'),
  };
}
