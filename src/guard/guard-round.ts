import { DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../core/defaults.js';
import type { ErrorClass } from '../core/error-class.js';
import type { CallRecord, GuardState, LoopEvidence, RoundRecord } from '../core/guard-state.js';
import type { ToolMessage } from '../core/message.js';
import { type CallDigests, callDigests, hash53, type ResultDigest, resultDigest } from './fingerprint.js';
import { type GuardConfig, newsOf, observeRound, withNudged } from './loop-guard.js';
import { loopNote } from './loop-note.js';
import { offeredValues } from './offered-values.js';

/**
 * One call and what came of it, as the guard reads it: plain text, whoever ran the call (the loop,
 * `guardTools`, the MCP proxy).
 */
export interface GuardCall {
  readonly tool: string;
  /** The arguments' text as the model sent it; the guard reads it in canonical form. */
  readonly arguments: string;
  /** What the model saw of the result (for a replayed write, the result it replays). */
  readonly content: string;
  /** How the call failed; undefined when it succeeded. */
  readonly errorClass?: ErrorClass | undefined;
}

/** One round for the guard: its state and configuration, the round's calls as plain records, their messages. */
export interface GuardRoundInput {
  readonly state: GuardState;
  readonly config: GuardConfig;
  /** Whether a tool name is a write tool (unknown names are not). */
  readonly isWrite: (tool: string) => boolean;
  /** The round's calls with their answers, in the model's order. */
  readonly calls: readonly GuardCall[];
  /** The round's tool messages, one per call, to put the note beside (none: the note is only returned). */
  readonly toolMessages?: readonly ToolMessage[];
  /** Give the model a note on a warning (once per detector and fingerprints). */
  readonly nudge: boolean;
  /**
   * Reads a call by itself (`readCall` with `isWrite` and `config` unless told): the gateway's remembers the
   * calls it read, since every request of a turn brings each earlier one again.
   */
  readonly readCall?: (call: GuardCall) => CallReading;
}

/** What the guard made of a round: the next state, the notes, the warnings and a stop. */
export interface GuardRoundOutcome {
  readonly state: GuardState;
  /** The round's tool messages, a note added beside the content where one was due. */
  readonly toolMessages: readonly ToolMessage[];
  readonly warnings: readonly { readonly evidence: LoopEvidence; readonly nudged: boolean }[];
  /** The round's one note for the model, when one was due: its text and the index of the call it goes beside. */
  readonly note?: { readonly index: number; readonly text: string };
  /** Set when the guard says stop. */
  readonly stop?: LoopEvidence;
}

/**
 * The semantic guard over one round: the records of the calls it keeps (fingerprints of what the model
 * asked and what it saw), the detectors, and a note beside the result of a call about to be stopped.
 */
export function guardRound(input: GuardRoundInput): GuardRoundOutcome {
  const { config, calls } = input;
  const given = input.toolMessages ?? [];
  const records: CallRecord[] = [];
  const count = Math.min(calls.length, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND);
  for (let index = 0; index < count; index++) {
    records.push(recordOf(calls[index] as GuardCall, input));
  }
  const observed = observeRound(input.state, records, config, true);
  let state = observed.state;
  if (observed.findings.length === 0) return { state, toolMessages: given, warnings: [] };

  const last = (input.toolMessages === undefined ? calls.length : given.length) - 1;
  let note: { readonly index: number; readonly text: string } | undefined;
  const warnings: Array<{ evidence: LoopEvidence; nudged: boolean }> = [];
  let stop: LoopEvidence | undefined;
  for (const finding of observed.findings) {
    if (finding.level === 'stop') {
      stop ??= finding.evidence;
      continue;
    }
    // The note goes beside the result of the call the finding is about (its first occurrence in the
    // round), or the round's last result when it is about the round as a whole.
    const index = finding.callIndex === undefined ? last : (observed.kept[finding.callIndex] ?? last);
    const key = `${finding.evidence.detector}:${finding.evidence.fingerprints.map((f) => f.call).join(',')}`;
    // One note per round at most: the model reads one clear line, not one per detector.
    const placed = input.toolMessages === undefined ? index >= 0 : given[index] !== undefined;
    const nudged = input.nudge && note === undefined && placed && !state.nudged.includes(key);
    if (nudged) {
      note = { index, text: loopNote(finding.evidence) };
      state = withNudged(state, key);
    }
    warnings.push({ evidence: finding.evidence, nudged });
  }
  const message = note === undefined ? undefined : given[note.index];
  let toolMessages = given;
  if (note !== undefined && message !== undefined) {
    const withNote = [...given];
    withNote[note.index] = { ...message, note: note.text };
    toolMessages = withNote;
  }
  return {
    state,
    toolMessages,
    warnings,
    ...(note === undefined ? {} : { note }),
    ...(stop === undefined ? {} : { stop }),
  };
}

/**
 * What the guard reads of a call by itself, whatever came before it: the same for the same call, the tool's
 * effect and hints. The guard builds the call's record from it and the state.
 */
export interface CallReading {
  readonly write: boolean;
  readonly digests: CallDigests;
  /** The result's digest; undefined when the call failed. */
  readonly answer: ResultDigest | undefined;
  /** The record's `result`: the answer's digest, or a failed call's text hashed. */
  readonly result: number;
  /** The values the result offers (none when the call failed). */
  readonly offers: readonly number[];
}

const NO_OFFERS: readonly number[] = Object.freeze([]);

/** Reads a call by itself: its digests and its result's, under `config`'s hints and the tool's effect. */
export function readCall(
  call: GuardCall,
  isWrite: (tool: string) => boolean,
  config: GuardConfig,
): CallReading {
  const { tool, content } = call;
  const write = isWrite(tool);
  const answer = call.errorClass === undefined ? resultDigest(content, config.hintsOf(tool)) : undefined;
  return {
    write,
    digests: callDigests(tool, call.arguments, write, answer?.content === true),
    answer,
    result: answer === undefined ? hash53(content) : answer.digest,
    offers: answer === undefined ? NO_OFFERS : offeredValues(content),
  };
}

function recordOf(call: GuardCall, input: GuardRoundInput): CallRecord {
  const { tool, errorClass } = call;
  const { write, digests, answer, result, offers } =
    input.readCall?.(call) ?? readCall(call, input.isWrite, input.config);
  // Built field by field, in the order `restoreGuardState` writes them (a saved run state is checked
  // against its restored form): one shape of record per kind of call, every call.
  const record: Partial<{ -readonly [K in keyof CallRecord]: CallRecord[K] }> = { tool, call: digests.call };
  if (digests.shape !== undefined) record.shape = digests.shape;
  if (digests.gist !== undefined) record.gist = digests.gist;
  if (digests.pace !== undefined) record.pace = digests.pace;
  record.result = result;
  if (answer === undefined) {
    record.outcome = errorClass === 'transient' ? 'transient' : errorClass === 'denied' ? 'denied' : 'error';
  } else {
    if (answer.frame !== undefined && answer.sum !== undefined) {
      record.frame = answer.frame;
      record.sum = answer.sum;
    }
    if (offers.length > 0) record.offers = offers;
    record.outcome = 'ok';
  }
  if (write) record.write = true;
  if (follows(input.state, tool, call.arguments)) record.chained = true;
  if (answer?.content === true) record.content = true;
  // Read against the window here, on the record being built: one object per call.
  const news = newsOf(input.state.window, record as CallRecord);
  record.result = news.result;
  if (news.novel) record.novel = true;
  return record as CallRecord;
}

/** Whether a call passes on a handle that the previous round, or its tool's last answer, offered. */
function follows(state: GuardState, tool: string, rawArguments: string): boolean {
  const { window } = state;
  const previous = window.at(-1);
  if (previous === undefined) return false;
  const offering: CallRecord[] = [];
  for (const record of previous.calls) if (record.offers !== undefined) offering.push(record);
  let last: CallRecord | undefined;
  for (let index = window.length - 1; index >= 0 && last === undefined; index--)
    last = (window[index] as RoundRecord).calls.find((record) => record.tool === tool);
  if (last?.offers !== undefined && !offering.includes(last)) offering.push(last);
  if (offering.length === 0) return false;
  const passed = offeredValues(rawArguments);
  return offering.some((record) => record.offers?.some((offer) => passed.includes(offer)) === true);
}
