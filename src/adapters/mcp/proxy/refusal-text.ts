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
  | { readonly reason: 'loop-repeat'; readonly tool: string };

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
    default: {
      const never: never = why;
      return never;
    }
  }
}

function refusal(code: RefusalCode, parts: readonly ModelTextPart[]): Refusal {
  return { kind: 'refuse', code, text: `${code}: ${modelText(parts)}` };
}
