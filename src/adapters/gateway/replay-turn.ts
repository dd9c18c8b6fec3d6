import type { GuardState, LoopEvidence } from '../../core/guard-state.js';
import { type CallReading, type GuardCall, guardRound } from '../../guard/guard-round.js';
import type { GuardConfig } from '../../guard/loop-guard.js';
import { startRequest } from '../../guard/loop-guard.js';
import { mayChangeWorld } from '../../tools/tool-effect.js';
import type { GatewayPolicy } from './gateway-policy.js';
import type { CallNote, TurnHistory } from './wire.js';

/** What the loop guard made of the turn's rounds. */
export interface TurnReplay {
  /** The guard's memory after the turn's rounds. */
  readonly state: GuardState;
  /** Notes for the model beside results, the same for every request of the turn (the guard is replayed). */
  readonly notes: readonly CallNote[];
  /** The guard said stop: the evidence, and the round of the turn (from 1) that showed it. */
  readonly stop?: { readonly evidence: LoopEvidence; readonly round: number };
}

/**
 * Replays the turn's rounds through the loop guard (`guardRound`, the one the loop, `guardTools` and the
 * MCP proxy use) from `start`, the guard's memory when the turn began: a new request of the session for
 * the guard. Only calls the app answered are rounds' records (a call left unanswered never ran). The same
 * start and history give the same state, notes and stop every time, on any gateway instance: a retried
 * request is judged as it was, and a note stays beside its result in every later request of the turn (the
 * provider's prompt cache sees the same text). `readCall`: how a call is read by itself (the gateway's
 * remembers the calls it read). `resumed`: `start` is the guard's memory within this turn already (after
 * rounds the turn knows by their calls only), so no new request begins.
 */
export function replayTurn(
  start: GuardState,
  turn: TurnHistory,
  policy: GatewayPolicy,
  config: GuardConfig | undefined,
  readCall?: (call: GuardCall) => CallReading,
  resumed = false,
): TurnReplay {
  const guard = policy.guard;
  let state = resumed ? start : startRequest(start);
  if (guard === false || config === undefined) return { state, notes: [] };
  const isWrite = (tool: string) => mayChangeWorld(policy.effectOf(tool));
  const notes: CallNote[] = [];
  let stop: TurnReplay['stop'];
  turn.rounds.forEach((round, index) => {
    const calls: GuardCall[] = [];
    const ids: string[] = [];
    for (const call of round.calls) {
      if (call.result === undefined) continue;
      calls.push({
        tool: call.name,
        arguments: call.arguments,
        content: call.result.content,
        errorClass: call.result.isError ? 'invalid-input' : undefined,
      });
      ids.push(call.id);
    }
    if (calls.length === 0) return;
    const outcome = guardRound({
      state,
      config,
      isWrite,
      calls,
      nudge: guard.nudge,
      ...(readCall === undefined ? {} : { readCall }),
    });
    state = outcome.state;
    const note = outcome.note;
    const callId = note === undefined ? undefined : ids[note.index];
    if (note !== undefined && callId !== undefined) notes.push({ callId, text: note.text });
    if (outcome.stop !== undefined && stop === undefined) stop = { evidence: outcome.stop, round: index + 1 };
  });
  return stop === undefined ? { state, notes } : { state, notes, stop };
}
