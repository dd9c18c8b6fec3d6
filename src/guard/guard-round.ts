import type { ToolCallResult } from '../chain/tool-execution-result.js';
import { NUDGE_TEXT } from '../defaults.js';
import type { ToolCall, ToolMessage } from '../messages/message.js';
import { callHash, hash53 } from './call-hash.js';
import type { LoopEvidence } from './guard-types.js';
import { finishRound, type LoopGuard, markNudged, recordCall, wasNudged } from './loop-guard.js';

export interface GuardRoundOutcome {
  /** The round's tool messages, with the nudge added where one was due. */
  readonly toolMessages: readonly ToolMessage[];
  readonly warnings: readonly { readonly evidence: LoopEvidence; readonly nudged: boolean }[];
  /** Set when the guard says stop. */
  readonly stop?: LoopEvidence;
}

/**
 * Gate 2, the semantic guard, for one round: fingerprint each call (canonical arguments + result digest),
 * run the detectors, add the nudge to the tool message of a call about to be stopped. Transient failures
 * the chain reported are not a loop (no warning, no nudge); only the same call still failing after
 * `transientRepeatLimit` rounds stops. Returns undefined when the detectors found nothing (almost every
 * round): the messages stand as they are, and nothing is allocated.
 */
export function guardRound(
  guard: LoopGuard,
  calls: readonly ToolCall[],
  results: readonly ToolCallResult[],
  toolMessages: readonly ToolMessage[],
  nudge: boolean,
  validatedArguments: readonly unknown[] = [],
): GuardRoundOutcome | undefined {
  // One record per result, in order (the chain answers every call), so a finding's callIndex is the call's.
  for (let index = 0; index < results.length; index++) {
    const result = results[index] as ToolCallResult;
    const call = calls[index];
    if (call === undefined) break;
    const tool = result.toolName;
    recordCall(
      guard,
      tool,
      callHash(guard.hashState, tool, call.arguments, validatedArguments[index]),
      hash53(result.content),
      result.type === 'error' && result.errorClass === 'transient',
    );
  }
  const findings = finishRound(guard);
  if (findings.length === 0) return undefined;
  let messages: ToolMessage[] | undefined;
  const warnings: Array<{ evidence: LoopEvidence; nudged: boolean }> = [];
  let stop: LoopEvidence | undefined;
  for (const finding of findings) {
    if (finding.level === 'stop') {
      stop ??= finding.evidence;
      continue;
    }
    const index = finding.callIndex;
    const key = `${finding.evidence.detector}:${finding.evidence.fingerprints.map((f) => f.call).join(',')}`;
    const message = index === undefined ? undefined : (messages ?? toolMessages)[index];
    const nudged = nudge && message !== undefined && !wasNudged(guard, key);
    if (nudged && index !== undefined && message !== undefined) {
      messages ??= [...toolMessages];
      messages[index] = { ...message, content: `${message.content}\n\n${NUDGE_TEXT}` };
      markNudged(guard, key);
    }
    warnings.push({ evidence: finding.evidence, nudged });
  }
  return {
    toolMessages: messages ?? toolMessages,
    warnings,
    ...(stop === undefined ? {} : { stop }),
  };
}
