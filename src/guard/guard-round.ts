import { DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../core/defaults.js';
import type { CallRecord, GuardState, LoopEvidence } from '../core/guard-state.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import { callDigest, hash53, resultDigest } from './fingerprint.js';
import { type GuardConfig, observeRound, withNudged } from './loop-guard.js';
import { loopNote } from './loop-note.js';

export interface GuardRoundInput {
  readonly state: GuardState;
  readonly config: GuardConfig;
  /** Whether a tool name is a write tool (unknown names are not). */
  readonly isWrite: (tool: string) => boolean;
  readonly calls: readonly ToolCall[];
  /**
   * One per call, in the model's order (the chain answers every call), each with its content as its tool
   * gave it: a replayed write's as it was when the write ran (the chain's `unwrappedResult`).
   */
  readonly results: readonly ToolCallResult[];
  readonly toolMessages: readonly ToolMessage[];
  /** Give the model a note on a warning (once per detector and fingerprints). */
  readonly nudge: boolean;
}

export interface GuardRoundOutcome {
  readonly state: GuardState;
  /** The round's tool messages, a note added beside the content where one was due. */
  readonly toolMessages: readonly ToolMessage[];
  readonly warnings: readonly { readonly evidence: LoopEvidence; readonly nudged: boolean }[];
  /** Set when the guard says stop. */
  readonly stop?: LoopEvidence;
}

/**
 * The semantic guard over one round: the records of the calls it keeps (fingerprints of what the model
 * asked and what it saw), the detectors, and a note beside the result of a call about to be stopped.
 */
export function guardRound(input: GuardRoundInput): GuardRoundOutcome {
  const { config, calls, results } = input;
  const records: CallRecord[] = [];
  const count = Math.min(results.length, calls.length, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND);
  for (let index = 0; index < count; index++) {
    records.push(recordOf(calls[index] as ToolCall, results[index] as ToolCallResult, input));
  }
  const observed = observeRound(input.state, records, config);
  let state = observed.state;
  if (observed.findings.length === 0) return { state, toolMessages: input.toolMessages, warnings: [] };

  let messages: ToolMessage[] | undefined;
  const warnings: Array<{ evidence: LoopEvidence; nudged: boolean }> = [];
  let stop: LoopEvidence | undefined;
  for (const finding of observed.findings) {
    if (finding.level === 'stop') {
      stop ??= finding.evidence;
      continue;
    }
    // The note goes beside the result of the call the finding is about (its first occurrence in the
    // round), or the round's last result when it is about the round as a whole.
    const index =
      finding.callIndex === undefined
        ? input.toolMessages.length - 1
        : (observed.kept[finding.callIndex] ?? input.toolMessages.length - 1);
    const key = `${finding.evidence.detector}:${finding.evidence.fingerprints.map((f) => f.call).join(',')}`;
    const message = (messages ?? input.toolMessages)[index];
    // One note per round at most: the model reads one clear line, not one per detector.
    const nudged =
      input.nudge && messages === undefined && message !== undefined && !state.nudged.includes(key);
    if (nudged && message !== undefined) {
      messages ??= [...input.toolMessages];
      const note = loopNote(finding.evidence);
      messages[index] = { ...message, note };
      state = withNudged(state, key);
    }
    warnings.push({ evidence: finding.evidence, nudged });
  }
  return {
    state,
    toolMessages: messages ?? input.toolMessages,
    warnings,
    ...(stop === undefined ? {} : { stop }),
  };
}

function recordOf(call: ToolCall, result: ToolCallResult, input: GuardRoundInput): CallRecord {
  const tool = result.toolName;
  const record: { -readonly [K in keyof CallRecord]: CallRecord[K] } = {
    tool,
    call: callDigest(tool, call.arguments),
    result: 0,
    outcome: 'ok',
  };
  // Field order as `restoreGuardState` writes them: a saved run state is checked against its restored form.
  if (input.isWrite(tool)) record.write = true;
  const { content } = result;
  if (result.type === 'error') {
    record.result = hash53(content);
    record.outcome =
      result.errorClass === 'transient' ? 'transient' : result.errorClass === 'denied' ? 'denied' : 'error';
  } else {
    const digest = resultDigest(content, input.config.hintsOf(tool));
    record.result = digest.digest;
    if (digest.content) record.content = true;
  }
  return record;
}
