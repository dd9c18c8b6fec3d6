import type { ToolCallResult } from '../chain/tool-execution-result.js';
import { NUDGE_TEXT } from '../defaults.js';
import type { ToolCall, ToolMessage } from '../messages/message.js';
import type { LoopThresholds } from './detect-loops.js';
import { callFingerprint, resultFingerprint } from './fingerprint.js';
import type { CallRecord, GuardState, LoopEvidence } from './guard-types.js';
import { markNudged, observeRound } from './loop-guard.js';

export interface GuardRoundOutcome {
  readonly state: GuardState;
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
 * `transientRepeatLimit` rounds stops. Pure.
 */
export function guardRound(
  state: GuardState,
  calls: readonly ToolCall[],
  results: readonly ToolCallResult[],
  toolMessages: readonly ToolMessage[],
  config: LoopThresholds & { readonly nudge: boolean },
  validatedArguments: readonly unknown[] = [],
): GuardRoundOutcome {
  // One record per result, in order (the chain answers every call), so a finding's callIndex is the call's.
  const records: CallRecord[] = [];
  for (let index = 0; index < results.length; index++) {
    const result = results[index] as ToolCallResult;
    const call = calls[index];
    if (call === undefined) break;
    const tool = result.toolName;
    const callKey = callFingerprint(tool, call.arguments, validatedArguments[index]);
    const resultKey = resultFingerprint(result.content);
    records.push(
      result.type === 'error' && result.errorClass === 'transient'
        ? { tool, call: callKey, result: resultKey, transient: true }
        : { tool, call: callKey, result: resultKey },
    );
  }
  const observed = observeRound(state, records, config);
  if (observed.findings.length === 0) return { state: observed.state, toolMessages, warnings: [] };
  let next = observed.state;
  const messages = [...toolMessages];
  const warnings: Array<{ evidence: LoopEvidence; nudged: boolean }> = [];
  let stop: LoopEvidence | undefined;
  for (const finding of observed.findings) {
    if (finding.level === 'stop') {
      stop ??= finding.evidence;
      continue;
    }
    const index = finding.callIndex;
    const key = `${finding.evidence.detector}:${finding.evidence.fingerprints.map((f) => f.call).join(',')}`;
    const message = index === undefined ? undefined : messages[index];
    const nudge = config.nudge && message !== undefined && !next.nudged.includes(key);
    if (nudge && index !== undefined && message !== undefined) {
      messages[index] = { ...message, content: `${message.content}\n\n${NUDGE_TEXT}` };
      next = markNudged(next, key);
    }
    warnings.push({ evidence: finding.evidence, nudged: nudge });
  }
  return { state: next, toolMessages: messages, warnings, ...(stop === undefined ? {} : { stop }) };
}
