import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { AnyTool } from '../tools/define-tool.js';
import { effectRules } from '../tools/tool-effect.js';
import type { PreparedCall } from './prepare.js';

/**
 * Which calls of one response are answered by another's execution: identical calls to a read tool (the
 * same tool, the same canonical arguments: `CallIdentity.canonical`) that were decided to run run once, at the first of them.
 * Returns, per call, the index of the call whose execution answers it (its own index for a call that
 * runs, or that is refused), or undefined when no call is shared. A response with one call, or with no
 * two ready read calls to one tool, is not canonicalized at all. Write tools are never shared: each
 * identical write runs.
 */
export function findSharedReads(prepared: readonly PreparedCall[]): readonly number[] | undefined {
  if (prepared.length < 2) return undefined;
  const seen = new Set<AnyTool>();
  let repeated: Set<AnyTool> | undefined;
  for (const entry of prepared) {
    if (entry.type !== 'ready' || !effectRules(entry.tool.effect).sharesIdenticalCalls) continue;
    if (!seen.has(entry.tool)) seen.add(entry.tool);
    else {
      repeated ??= new Set();
      repeated.add(entry.tool);
    }
  }
  if (repeated === undefined) return undefined;

  const firstByArguments = new Map<AnyTool, Map<string, number>>();
  let answeredBy: number[] | undefined;
  for (let index = 0; index < prepared.length; index++) {
    const entry = prepared[index] as PreparedCall;
    if (entry.type !== 'ready' || !repeated.has(entry.tool)) continue;
    const key = entry.identity.canonical;
    let firsts = firstByArguments.get(entry.tool);
    if (firsts === undefined) {
      firsts = new Map();
      firstByArguments.set(entry.tool, firsts);
    }
    const first = firsts.get(key);
    if (first === undefined) {
      firsts.set(key, index);
      continue;
    }
    answeredBy ??= prepared.map((_, own) => own);
    answeredBy[index] = first;
  }
  return answeredBy;
}

/**
 * The answer of a call that did not run because an identical call did (`ran`): the same content, value or
 * failure (code, class, error), under its own call id, with `sharedWith` naming the call that ran.
 * `attempts` and `durationMs` are 0: its own execute never ran (the time is the shared call's).
 */
export function sharedResult(ran: ToolCallResult, toolCallId: string): ToolCallResult {
  // What belongs to the call that ran stays with it: the decision on it, and the contract its tool broke.
  const { approval: _approval, decidedBy: _decidedBy, contractViolation: _violation, ...result } = ran;
  return { ...result, toolCallId, attempts: 0, durationMs: 0, sharedWith: ran.toolCallId };
}
