import { DEFAULT_DENIED_TEXT } from '../../../core/defaults.js';
import { type ModelTextPart, modelText, toolNamePart } from '../../../gate/model-text.js';
import type { Refusal, RefusalCode } from './call-decision.js';

/** Why a call is refused, as the policy knows it; each reason has one short, stable text. */
export type RefusalReason =
  | { readonly reason: 'denied' }
  | { readonly reason: 'declined' }
  | { readonly reason: 'cannot-confirm' }
  | { readonly reason: 'tool-limit'; readonly tool: string; readonly limit: number }
  | { readonly reason: 'session-limit'; readonly limit: number }
  | { readonly reason: 'loop'; readonly tool: string }
  | { readonly reason: 'loop-repeat'; readonly tool: string }
  | { readonly reason: 'secret-in-arguments'; readonly tool: string; readonly rules: readonly string[] }
  | { readonly reason: 'secret-in-result'; readonly tool: string; readonly rules: readonly string[] }
  | { readonly reason: 'tool-changed'; readonly tool: string }
  | {
      readonly reason: 'rate-limit';
      /** The tool of a per-tool limit; undefined for the client's limit over all tools. */
      readonly tool: string | undefined;
      readonly limit: number;
      readonly window: 'minute' | 'hour';
      readonly per: 'client' | 'proxy';
      readonly retryAfterMs: number;
    }
  | { readonly reason: 'rate-unavailable' };

/** The refusal for a reason: its code and its text (`CODE: text`; a tool name leaves through the gate). */
export function refusalOf(why: RefusalReason): Refusal {
  switch (why.reason) {
    case 'denied':
      return refusal('PERMISSION_DENIED', [DEFAULT_DENIED_TEXT]);
    case 'declined':
      return refusal('PERMISSION_DENIED', ['The user declined this action; do not repeat this call.']);
    case 'cannot-confirm':
      return refusal('PERMISSION_DENIED', [
        "This action needs the user's confirmation, which this client cannot ask for; do not repeat this call.",
      ]);
    case 'tool-limit':
      return refusal('TOOL_CALL_LIMIT', [
        'The limit of ',
        String(why.limit),
        ' calls to ',
        toolNamePart(why.tool),
        ' in this session is reached; do not call it again.',
      ]);
    case 'session-limit':
      return refusal('TOOL_CALL_LIMIT', [
        'The limit of ',
        String(why.limit),
        ' tool calls in this session is reached; do not call any tool again.',
      ]);
    case 'loop':
      return refusal('LOOP_DETECTED', [
        'This call to ',
        toolNamePart(why.tool),
        ' repeats a loop that was stopped: it gave the same result each time. Use the results you have or try something else.',
      ]);
    case 'loop-repeat':
      return refusal('LOOP_DETECTED', [
        'This call to ',
        toolNamePart(why.tool),
        ' ran again and gave the same result as before, which you already have: its loop was stopped. Use the results you have or try something else.',
      ]);
    case 'secret-in-arguments':
      return refusal('SECRET_DETECTED', [
        'The arguments of this call to ',
        toolNamePart(why.tool),
        ` hold a secret (rule: ${why.rules.join(', ')}); the call was not sent. Do not put keys, tokens or passwords in tool arguments.`,
      ]);
    case 'secret-in-result':
      return refusal('SECRET_DETECTED', [
        'The call to ',
        toolNamePart(why.tool),
        ` ran, but its result holds a secret (rule: ${why.rules.join(', ')}) and was withheld. Do not repeat the call to see it.`,
      ]);
    case 'tool-changed':
      return refusal('TOOL_DEFINITION_CHANGED', [
        'The definition of ',
        toolNamePart(why.tool),
        ' changed since it was approved; it is withheld until the operator approves the change. Do not call it.',
      ]);
    case 'rate-limit': {
      const seconds = Math.max(1, Math.ceil(why.retryAfterMs / 1000));
      const whose = why.per === 'client' ? 'for this client' : 'for all clients together';
      const what = why.tool === undefined ? [' tool calls'] : [' calls to ', toolNamePart(why.tool)];
      return {
        ...refusal('RATE_LIMITED', [
          'The limit of ',
          String(why.limit),
          ...what,
          ` per ${why.window} ${whose} is reached; try again in ${seconds} s.`,
        ]),
        retryAfterMs: why.retryAfterMs,
      };
    }
    case 'rate-unavailable':
      return refusal('TOOL_UNAVAILABLE', [
        'The rate limits could not be checked (their store is not reachable); the call was not sent. Try again later.',
      ]);
    default: {
      const never: never = why;
      return never;
    }
  }
}

function refusal(code: RefusalCode, parts: readonly ModelTextPart[]): Refusal {
  return { kind: 'refuse', code, text: `${code}: ${modelText(parts)}` };
}
